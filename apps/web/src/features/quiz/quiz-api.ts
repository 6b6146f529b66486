import type { QuizResponse } from '@flashcards/shared/api-types';
import { timeouts } from '@flashcards/shared/limits';
import { useApiMutation } from '../../lib/api-hooks';

export interface QuizCard {
  question: string;
  answer: string;
}

/** A deck id the quiz accepts: 24 hex characters. */
export function isDeckId(value: string): boolean {
  return /^[0-9a-f]{24}$/i.test(value);
}

/** POST /api/quiz/generate. The AI makes the questions, so it gets the generation timeout (180 s). */
export function useGenerateQuiz() {
  return useApiMutation((api, deckId: string) =>
    api.post<QuizResponse>('/api/quiz/generate', {
      json: { deck_id: deckId },
      timeoutMs: timeouts.generationRequestMs,
    }),
  );
}
