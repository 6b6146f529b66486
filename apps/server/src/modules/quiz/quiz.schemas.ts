import { idOf } from '@flashcards/shared/ids';
import { messages } from '@flashcards/shared/messages';
import { z } from 'zod';
import { isId } from '../../adapters/ids';

/**
 * POST /api/quiz/generate: `deck_id` (or `_id` / `id`). Missing: 422 validation_failed "Please select a deck.";
 * not an id: 422 invalid_deck_id (docs/api.md).
 */
export const quizRequestSchema = z.preprocess(
  (body) => ({ deck_id: idOf(body, 'deck_id') }),
  z.object({
    deck_id: z
      .unknown()
      .refine((value) => value !== undefined && value !== null && value !== '', {
        error: messages.selectDeck,
        abort: true,
      })
      .pipe(z.custom<string>(isId, { error: messages.invalidDeckIdServer, params: { code: 'invalid_deck_id' } })),
  }),
);
