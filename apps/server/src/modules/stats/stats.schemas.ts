import type { ForecastResponse, HistoryResponse } from '@flashcards/shared/api-types';
import { limits } from '@flashcards/shared/limits';
import { serverMessages } from '@flashcards/shared/server-messages';
import { z } from 'zod';
import { boundedInt, deckFilter } from '../../http/request-schemas';

const days = (fallback: number) =>
  z.preprocess(
    (value) =>
      value === undefined || value === ''
        ? fallback
        : typeof value === 'string' && /^\s*\d{1,4}\s*$/.test(value)
          ? Number(value)
          : value,
    boundedInt(1, limits.maxStatsDays, serverMessages.statsDaysInvalid),
  );

/** GET /stats/history: `days` 1 to 366 (default 365), optional `deck_id`. */
export const historyQuerySchema = z.object({ days: days(limits.defaultHistoryDays), deck_id: deckFilter });

/** GET /stats/forecast: `days` 1 to 366 (default 30), optional `deck_id`. */
export const forecastQuerySchema = z.object({ days: days(limits.defaultForecastDays), deck_id: deckFilter });

export const historyResponseSchema = z.object({
  time_zone: z.string(),
  days: z.array(z.object({ date: z.string(), reviews: z.int(), passed: z.int(), new_cards: z.int() })),
  streak_days: z.int(),
  retention_30d: z.number().nullable(),
  reviews_30d: z.int(),
}) satisfies z.ZodType<HistoryResponse>;

export const forecastResponseSchema = z.object({
  time_zone: z.string(),
  days: z.array(z.object({ date: z.string(), due: z.int() })),
}) satisfies z.ZodType<ForecastResponse>;
