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

/** PUT /decks/{id}/settings: a whole number, 0 or more (a numeric string is accepted too). */
export const deckSettingsSchema = z.object({
  daily_new_card_limit: z.preprocess(
    (value) => (typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
    z
      .number({ error: messages.dailyLimitInvalid })
      .int({ error: messages.dailyLimitInvalid })
      .min(0, { error: messages.dailyLimitInvalid })
      .max(limits.maxDailyNewCardLimit, { error: messages.dailyLimitInvalid }),
  ),
});
