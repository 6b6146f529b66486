import type { Card, CardPage, ReviewResponse, ReviewResult } from '@flashcards/shared/api-types';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../lib/api-context';
import { useApiMutation } from '../../lib/api-hooks';
import { deckKeys } from '../decks/decks-api';

/**
 * The queue of one review session (GET /cards/due, in the server's order), for one deck or, with `deckId` null,
 * for every deck. Each session (`session` counts them) fetches afresh and keeps its own copy.
 */
export function useReviewQueue(deckId: string | null, session: number) {
  const api = useApi();
  return useQuery({
    queryKey: [...deckKeys.due(deckId ?? 'all'), session],
    queryFn: () => api.get<Card[]>(deckId ? `/cards/due?deck_id=${encodeURIComponent(deckId)}` : '/cards/due'),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    refetchOnReconnect: false,
  });
}

/** POST /cards/review. Nothing is refetched per card: the session refreshes the stats when it ends. */
export function useReviewCard() {
  return useApiMutation((api, input: { cardId: string; result: ReviewResult }) =>
    api.post<ReviewResponse>('/cards/review', { json: { card_id: input.cardId, result: input.result } }),
  );
}

/** Deck lists, counts and statistics after a session: everything under ['decks'] (not the session's queue). */
export function useRefreshDeckData() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: deckKeys.all });
}

/** Cards per request of the export's fetch: the largest page the server gives. */
const EXPORT_PAGE_SIZE = 500;

/** All cards of a deck for the Anki export, fetched fresh at the moment of export, page after page. */
export function useFetchDeckCards() {
  const api = useApi();
  const queryClient = useQueryClient();
  return (deckId: string) =>
    queryClient.fetchQuery({
      queryKey: deckKeys.cards(deckId),
      queryFn: async () => {
        const cards: Card[] = [];
        let cursor: string | null = null;
        do {
          const query = new URLSearchParams({ limit: String(EXPORT_PAGE_SIZE) });
          if (cursor) query.set('cursor', cursor);
          const page: CardPage = await api.get<CardPage>(`/decks/${encodeURIComponent(deckId)}/cards?${query}`);
          cards.push(...page.cards);
          cursor = page.next_cursor;
        } while (cursor);
        return cards;
      },
      staleTime: 0,
      retry: false,
    });
}
