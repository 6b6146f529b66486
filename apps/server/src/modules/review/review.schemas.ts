import { messages } from '@flashcards/shared/messages';
import { z } from 'zod';
import { bodyWithId, deckFilter, typedAnswerSchema, verdictSchema } from '../../http/request-schemas';

/**
 * POST /cards/review: `card_id` (or `_id` / `id`) and "pass" or "fail"; after a typed answer, what was typed and the
 * verdict of POST /cards/{id}/check, kept in the review log.
 */
export const reviewSchema = bodyWithId('card_id', messages.cardIdMissing, {
  result: z.enum(['pass', 'fail'], { error: messages.reviewResultInvalid }),
  typed: typedAnswerSchema.optional(),
  verdict: verdictSchema.optional(),
});

/** GET /cards/due and the stats: an optional deck. */
export const queueQuerySchema = z.object({ deck_id: deckFilter });
