import { withIdAlias } from '@flashcards/shared/ids';
import { limits } from '@flashcards/shared/limits';
import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { z } from 'zod';
import { isId } from '../../adapters/ids';

/** `deck_id` (or `_id` / `id`): missing is 422 validation_failed "Please select a deck."; not an id 422 invalid_deck_id. */
const quizDeckId = z
  .unknown()
  .refine((value) => value !== undefined && value !== null && value !== '', {
    error: messages.selectDeck,
    abort: true,
  })
  .pipe(z.custom<string>(isId, { error: serverMessages.invalidDeckIdServer, params: { code: 'invalid_deck_id' } }));

/** POST /api/quiz/generate: the deck and the mode (`flip`, as before, when absent). */
export const quizRequestSchema = z.preprocess(
  withIdAlias('deck_id'),
  z.object({
    deck_id: quizDeckId,
    mode: z
      .enum(['flip', 'multiple_choice', 'true_false', 'matching', 'written'], { error: serverMessages.quizModeInvalid })
      .default('flip'),
  }),
);

/** POST /api/quiz/results: 1 to 500 answers, each a card of the deck and whether it was answered right. */
export const quizResultsRequestSchema = z.preprocess(
  withIdAlias('deck_id'),
  z.object({
    deck_id: quizDeckId,
    answers: z
      .array(
        z.object(
          {
            card_id: z
              .string({ error: serverMessages.quizAnswersInvalid })
              .trim()
              .min(1, { error: serverMessages.quizAnswersInvalid })
              .max(100, { error: serverMessages.quizAnswersInvalid }),
            correct: z.boolean({ error: serverMessages.quizAnswersInvalid }),
          },
          { error: serverMessages.quizAnswersInvalid },
        ),
        { error: serverMessages.quizAnswersInvalid },
      )
      .min(1, { error: serverMessages.quizAnswersInvalid })
      .max(limits.maxQuizAnswers, { error: serverMessages.quizAnswersInvalid }),
    send_missed_to_review: z.boolean({ error: serverMessages.quizSendMissedInvalid }).default(false),
  }),
);
