import type { QuizMode, QuizResults, StudyQuiz } from '@flashcards/shared/api-types';
import { timeouts } from '@flashcards/shared/limits';
import { useApiMutation } from '../../lib/api-hooks';
import { deckKeys } from '../../lib/decks-api';

export interface QuizCard {
  question: string;
  answer: string;
}

/** A deck id the quiz accepts: 24 hex characters. */
export function isDeckId(value: string): boolean {
  return /^[0-9a-f]{24}$/i.test(value);
}

/**
 * POST /api/quiz/generate. Flip mode's questions are written by the AI, so it gets the generation timeout (180 s);
 * the mode is sent only when it is not flip, as before.
 */
export function useGenerateQuiz() {
  return useApiMutation((api, input: { deckId: string; mode: QuizMode }) =>
    api.post<StudyQuiz>('/api/quiz/generate', {
      json: input.mode === 'flip' ? { deck_id: input.deckId } : { deck_id: input.deckId, mode: input.mode },
      timeoutMs: timeouts.generationRequestMs,
    }),
  );
}

export interface QuizAnswer {
  card_id: string;
  correct: boolean;
}

/** POST /api/quiz/results with the missed cards sent to review (due now): the deck lists' counts change. */
export function useSendQuizResults() {
  return useApiMutation(
    (api, input: { deckId: string; answers: QuizAnswer[] }) =>
      api.post<QuizResults>('/api/quiz/results', {
        json: { deck_id: input.deckId, answers: input.answers, send_missed_to_review: true },
      }),
    [deckKeys.all],
  );
}
