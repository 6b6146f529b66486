import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { z } from 'zod';
import { bodyWithId, deckFilter, typedAnswerSchema, verdictSchema } from '../../http/request-schemas';

/**
 * POST /cards/review: `card_id` (or `_id` / `id`) and "pass" or "fail"; after a typed answer, what was typed and the
 * verdict of POST /cards/{id}/check, kept in the review log.
 */
export const reviewSchema = bodyWithId('card_id', messages.cardIdMissing, {
  result: z.enum(['pass', 'fail'], { error: serverMessages.reviewResultInvalid }),
  typed: typedAnswerSchema.optional(),
  verdict: verdictSchema.optional(),
  // Lower case, as POST /reviews/sync keeps it, so that one answer has one id whichever way it reaches the server.
  review_id: z
    .uuid({ error: serverMessages.reviewIdInvalid })
    .transform((id) => id.toLowerCase())
    .optional()
    .meta({ description: 'A UUID the client made for this answer: sent again, it is recorded once' }),
});

/** GET /cards/due and the stats: an optional deck. */
export const queueQuerySchema = z.object({ deck_id: deckFilter });
