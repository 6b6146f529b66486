import type { CardPage, CardSearchResponse, ReviewResponse } from '@flashcards/shared/api-types';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useApi } from '../../lib/api-context';
import { useApiMutation } from '../../lib/api-hooks';

/** Cards a page in the Cards tab: a few screens of rows, so scrolling rarely waits. */
export const CARDS_PAGE_SIZE = 200;

export const cardKeys = {
  pages: (deckId: string) => ['decks', deckId, 'cards', 'pages'] as const,
  search: (q: string, deckId: string | null) => ['cards', 'search', deckId ?? 'all', q] as const,
};

/** A deck's cards in creation order, a page at a time (GET /decks/{id}/cards?limit=&cursor=). */
export function useDeckCardPages(deckId: string) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: cardKeys.pages(deckId),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const query = new URLSearchParams({ limit: String(CARDS_PAGE_SIZE) });
      if (pageParam) query.set('cursor', pageParam);
      return api.get<CardPage>(`/decks/${encodeURIComponent(deckId)}/cards?${query}`);
    },
    getNextPageParam: (last) => last.next_cursor,
  });
}

/** Cards matching `q` (every word, as a prefix), in one deck or all of them, best first, page by page. */
export function useCardSearch(q: string, deckId: string | null) {
  const api = useApi();
  const text = q.trim();
  return useInfiniteQuery({
    queryKey: cardKeys.search(text, deckId),
    enabled: text.length > 0,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const query = new URLSearchParams({ q: text, limit: '50' });
      if (deckId) query.set('deck_id', deckId);
      if (pageParam) query.set('cursor', pageParam);
      return api.get<CardSearchResponse>(`/cards/search?${query}`);
    },
    getNextPageParam: (last) => last.next_cursor,
  });
}

/** POST /cards/{id}/undo-review: the card as it was before its latest answer. */
export function useUndoReview() {
  return useApiMutation((api, cardId: string) =>
    api.post<ReviewResponse>(`/cards/${encodeURIComponent(cardId)}/undo-review`),
  );
}
