import type { ImportResponse, SharedDeckInfo, ShareResponse } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { useQuery } from '@tanstack/react-query';
import { errorCode, errorDetail } from '../../lib/api-client';
import { useApi } from '../../lib/api-context';
import { useApiMutation } from '../../lib/api-hooks';

/** POST /decks/{id}/share: the deck's share link (the same one while it lasts). */
export function useShareDeck() {
  return useApiMutation((api, deckId: string) => api.post<ShareResponse>(`/decks/${encodeURIComponent(deckId)}/share`));
}

export function useSharedDeck(code: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: ['shared-deck', code],
    queryFn: () => api.get<SharedDeckInfo>(`/shared/${encodeURIComponent(code ?? '')}`),
    enabled: Boolean(code),
    retry: false,
  });
}

export function useImportSharedDeck() {
  return useApiMutation((api, code: string) => api.post<ImportResponse>(`/shared/${encodeURIComponent(code)}/import`));
}

/** An unknown and an expired link have their own texts; anything else shows the detail or a fallback. */
export function sharedDeckErrorText(error: unknown): string {
  switch (errorCode(error)) {
    case 'share_not_found':
      return messages.shareNotFound;
    case 'share_expired':
      return messages.shareExpired;
    default:
      return errorDetail(error, messages.sharedDeckLoadFailed);
  }
}

export function importErrorText(error: unknown): string {
  return errorDetail(error, messages.importFailed);
}
