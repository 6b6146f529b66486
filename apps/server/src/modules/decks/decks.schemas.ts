import { limits } from '@flashcards/shared/limits';
import { messages } from '@flashcards/shared/messages';
import { z } from 'zod';
import { boundedInt } from '../../http/request-schemas';

/** A deck name: not empty once trimmed, at most maxDeckNameLength characters. */
const deckName = z
  .string({ error: messages.deckNameEmpty })
  .trim()
  .min(1, { error: messages.deckNameEmpty })
  .max(limits.maxDeckNameLength, { error: messages.deckNameTooLong });

/** POST /decks: the form field `deck_name` (not empty). */
export const createDeckSchema = z.preprocess(
  (fields) => {
    const record = (fields ?? {}) as Record<string, unknown>;
    return { deck_name: record.deck_name ?? record.name };
  },
  z.object({ deck_name: deckName }),
);

const dailyLimit = z.preprocess(
  (value) => (typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
  boundedInt(0, limits.maxDailyNewCardLimit, messages.dailyLimitInvalid),
);

const desiredRetention = z
  .number({ error: messages.desiredRetentionInvalid })
  .min(limits.minDesiredRetention, { error: messages.desiredRetentionInvalid })
  .max(limits.maxDesiredRetention, { error: messages.desiredRetentionInvalid });

/**
 * PUT /decks/{id}/settings: `daily_new_card_limit` (a whole number from 0, a numeric string accepted too),
 * `desired_retention` (0.70 to 0.97), `name` (a deck name), or any of them together. With none, the limit is reported
 * missing.
 */
export const deckSettingsSchema = z.preprocess(
  (body) => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
    const record = body as Record<string, unknown>;
    return 'daily_new_card_limit' in record || 'desired_retention' in record || 'name' in record
      ? record
      : { ...record, daily_new_card_limit: undefined };
  },
  z
    .object({
      daily_new_card_limit: dailyLimit.optional(),
      desired_retention: desiredRetention.optional(),
      name: deckName.optional(),
    })
    .superRefine((value, context) => {
      if (
        value.daily_new_card_limit === undefined &&
        value.desired_retention === undefined &&
        value.name === undefined
      ) {
        context.addIssue({ code: 'custom', path: ['daily_new_card_limit'], message: messages.dailyLimitInvalid });
      }
    }),
);
