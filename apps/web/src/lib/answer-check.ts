import type { AnswerCheck } from '@flashcards/shared/api-types';
import { useApiMutation } from './api-hooks';

/** POST /cards/{id}/check: the checker's verdict on a typed answer (review and the written quiz). */
export function useCheckAnswer() {
  return useApiMutation((api, input: { cardId: string; typed: string }) =>
    api.post<AnswerCheck>(`/cards/${encodeURIComponent(input.cardId)}/check`, { json: { typed: input.typed } }),
  );
}
