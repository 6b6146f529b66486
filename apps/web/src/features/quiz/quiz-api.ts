import type { QuizResponse } from '@flashcards/shared/api-types';
import { timeouts } from '@flashcards/shared/limits';
import { useMutation } from '@tanstack/react-query';
import { useApi } from '../../lib/api-context';

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
  const api = useApi();
  return useMutation({
    mutationFn: (deckId: string) =>
      api.post<QuizResponse>('/api/quiz/generate', {
        json: { deck_id: deckId },
        timeoutMs: timeouts.generationRequestMs,
      }),
  });
}
