import { limits } from '@flashcards/shared/limits';
import { messages } from '@flashcards/shared/messages';
import { z } from 'zod';

const days = (fallback: number) =>
  z.preprocess(
    (value) =>
      value === undefined || value === ''
        ? fallback
        : typeof value === 'string' && /^\s*\d{1,4}\s*$/.test(value)
          ? Number(value)
          : value,
    z
      .number({ error: messages.statsDaysInvalid })
      .int({ error: messages.statsDaysInvalid })
      .min(1, { error: messages.statsDaysInvalid })
      .max(limits.maxStatsDays, { error: messages.statsDaysInvalid }),
  );

const deckId = z
  .string({ error: messages.deckNotFound })
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

/** GET /stats/history: `days` 1 to 366 (default 365), optional `deck_id`. */
export const historyQuerySchema = z.object({ days: days(limits.defaultHistoryDays), deck_id: deckId });

/** GET /stats/forecast: `days` 1 to 366 (default 30), optional `deck_id`. */
export const forecastQuerySchema = z.object({ days: days(limits.defaultForecastDays), deck_id: deckId });
