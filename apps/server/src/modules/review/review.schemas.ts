import { messages } from '@flashcards/shared/messages';
import { z } from 'zod';
import { bodyWithId, deckFilter } from '../../http/request-schemas';

/** POST /cards/review: `card_id` (or `_id` / `id`) and "pass" or "fail". */
export const reviewSchema = bodyWithId('card_id', messages.cardIdMissing, {
  result: z.enum(['pass', 'fail'], { error: messages.reviewResultInvalid }),
});

/** GET /cards/due and the stats: an optional deck. */
export const queueQuerySchema = z.object({ deck_id: deckFilter });
