import { limits } from '@flashcards/shared/limits';
import { messages } from '@flashcards/shared/messages';
import { z } from 'zod';

/** POST /decks: the form field `deck_name` (product-spec.md section 5: not empty). */
export const createDeckSchema = z.preprocess(
  (fields) => {
    const record = (fields ?? {}) as Record<string, unknown>;
    return { deck_name: record.deck_name ?? record.name };
  },
  z.object({
    deck_name: z
      .string({ error: messages.deckNameEmpty })
      .trim()
      .min(1, { error: messages.deckNameEmpty })
      .max(limits.maxDeckNameLength, { error: messages.deckNameTooLong }),
  }),
);

const dailyLimit = z.preprocess(
  (value) => (typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
  z
    .number({ error: messages.dailyLimitInvalid })
    .int({ error: messages.dailyLimitInvalid })
    .min(0, { error: messages.dailyLimitInvalid })
    .max(limits.maxDailyNewCardLimit, { error: messages.dailyLimitInvalid }),
);

const desiredRetention = z
  .number({ error: messages.desiredRetentionInvalid })
  .min(limits.minDesiredRetention, { error: messages.desiredRetentionInvalid })
  .max(limits.maxDesiredRetention, { error: messages.desiredRetentionInvalid });

/**
 * PUT /decks/{id}/settings: `daily_new_card_limit` (a whole number from 0, a numeric string accepted too),
 * `desired_retention` (0.70 to 0.97), or both. With neither, the limit is reported missing.
 */
export const deckSettingsSchema = z.preprocess(
  (body) => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
    const record = body as Record<string, unknown>;
    return 'daily_new_card_limit' in record || 'desired_retention' in record
      ? record
      : { ...record, daily_new_card_limit: undefined };
  },
  z
    .object({
      daily_new_card_limit: dailyLimit.optional(),
      desired_retention: desiredRetention.optional(),
    })
    .superRefine((value, context) => {
      if (value.daily_new_card_limit === undefined && value.desired_retention === undefined) {
        context.addIssue({ code: 'custom', path: ['daily_new_card_limit'], message: messages.dailyLimitInvalid });
      }
    }),
);
