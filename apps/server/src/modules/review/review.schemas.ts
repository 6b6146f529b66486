import { messages } from '@flashcards/shared/messages';
import { z } from 'zod';

/** POST /cards/review: `card_id` (or `_id` / `id`) and "pass" or "fail". */
export const reviewSchema = z.preprocess(
  (body) => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
    const record = body as Record<string, unknown>;
    return { ...record, card_id: record.card_id ?? record._id ?? record.id };
  },
  z.object({
    card_id: z.string({ error: messages.cardIdMissing }).trim().min(1, { error: messages.cardIdMissing }),
    result: z.enum(['pass', 'fail'], { error: messages.reviewResultInvalid }),
  }),
);

/** GET /cards/due and the stats: an optional deck. */
export const queueQuerySchema = z.object({
  deck_id: z
    .string({ error: messages.deckNotFound })
    .optional()
    .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim())),
});
