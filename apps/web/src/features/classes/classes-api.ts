import type { ClassProgress, ClassSummary } from '@flashcards/shared/api-types';
import { classMessages } from '@flashcards/shared/class-messages';
import { messages } from '@flashcards/shared/messages';
import type { QueryKey } from '@tanstack/react-query';
import { errorCode, errorDetail } from '../../lib/api-client';
import { useApiGet, useApiMutation } from '../../lib/api-hooks';
import { classKeys } from '../../lib/classes-api';

/** Joining, leaving, assigning and removing add or unlink deck copies: classes, decks and cards are all stale. */
const classAndStudyData: readonly QueryKey[] = [classKeys.all, ['decks'], ['cards']];

const classPath = (id: string) => `/classes/${encodeURIComponent(id)}`;

/** GET /classes/{id}/progress (the teacher only); null `id` asks nothing. */
export function useClassProgress(id: string | null) {
  return useApiGet<ClassProgress>(
    id ? classKeys.progress(id) : ['classes', 'none'],
    id ? `${classPath(id)}/progress` : null,
  );
}

export function useCreateClass() {
  return useApiMutation((api, name: string) => api.post<ClassSummary>('/classes', { json: { name } }), [classKeys.all]);
}

export function useJoinClass() {
  return useApiMutation(
    (api, joinCode: string) => api.post<ClassSummary>('/classes/join', { json: { join_code: joinCode } }),
    classAndStudyData,
  );
}

export function useAssignDeck() {
  return useApiMutation(
    (api, input: { classId: string; deckId: string }) =>
      api.post<unknown>(`${classPath(input.classId)}/decks`, { json: { deck_id: input.deckId } }),
    [classKeys.all],
  );
}

export function useLeaveClass() {
  return useApiMutation(
    (api, classId: string) => api.request<void>(`${classPath(classId)}/membership`, { method: 'DELETE' }),
    classAndStudyData,
  );
}

export function useRemoveStudent() {
  return useApiMutation(
    (api, input: { classId: string; userId: string }) =>
      api.request<void>(`${classPath(input.classId)}/members/${encodeURIComponent(input.userId)}`, {
        method: 'DELETE',
      }),
    [classKeys.all],
  );
}

/** A wrong code and a second join have their own texts; anything else the server's detail or a fallback. */
export function joinErrorText(error: unknown): string {
  switch (errorCode(error)) {
    case 'class_not_found':
      return messages.classNotFound;
    case 'already_member':
      return messages.alreadyMember;
    default:
      return errorDetail(error, classMessages.joinFailed);
  }
}
