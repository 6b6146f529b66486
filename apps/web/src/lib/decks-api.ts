import type {
  Card,
  CardPage,
  Deck,
  DeckSettings,
  DeckSettingsUpdate,
  DeckStats,
  DeckSummary,
  SaveCardItem,
  SaveCardsResponse,
} from '@flashcards/shared/api-types';
import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useApi } from './api-context';
import { useApiGet, useApiMutation } from './api-hooks';

/** Query keys for everything deck- and card-shaped, so that a change invalidates exactly what it touches. */
export const deckKeys = {
  all: ['decks'] as const,
  deck: (id: string) => ['decks', id] as const,
  cards: (id: string) => ['decks', id, 'cards'] as const,
  stats: (id: string | 'all') => ['decks', 'stats', id] as const,
  due: (deckId: string | 'all') => ['cards', 'due', deckId] as const,
};

/** After any write to decks or cards: lists, counts, stats and queues are all stale. */
const studyData: readonly QueryKey[] = [['decks'], ['cards']];

/** The decks the learner may add cards to or hand on: a class deck's copy belongs to its teacher. */
export function ownDecks<D extends Deck>(decks: readonly D[] | undefined): D[] {
  return (decks ?? []).filter((deck) => !deck.linked);
}

export function useDecks() {
  return useApiGet<DeckSummary[]>(deckKeys.all, '/decks', { keepOnDevice: true });
}

/** Stats of one deck, or over all decks when `id` is undefined. */
export function useDeckStats(id?: string) {
  return useApiGet<DeckStats>(deckKeys.stats(id ?? 'all'), id ? `/decks/${id}/stats` : '/decks/stats', {
    keepOnDevice: true,
  });
}

export function useCreateDeck() {
  return useApiMutation((api, name: string) => api.post<Deck>('/decks', { form: { deck_name: name } }), studyData);
}

export function useDeleteDeck() {
  return useApiMutation((api, id: string) => api.request<void>(`/decks/${id}`, { method: 'DELETE' }), studyData);
}

export function useUpdateDeckSettings(id: string) {
  return useApiMutation(
    (api, settings: DeckSettingsUpdate) =>
      api.request<DeckSettings>(`/decks/${id}/settings`, { method: 'PUT', json: settings }),
    studyData,
  );
}

export function useSaveCards() {
  return useApiMutation(
    (api, input: { deckId: string; cards: SaveCardItem[] }) =>
      api.post<SaveCardsResponse>('/save-cards', { json: { deck_id: input.deckId, cards: input.cards } }),
    studyData,
  );
}

export function useUpdateCard() {
  return useApiMutation(
    (api, input: { id: string; question: string; answer: string }) =>
      api.request<Card>(`/cards/${input.id}`, {
        method: 'PUT',
        json: { question: input.question, answer: input.answer },
      }),
    studyData,
  );
}

export function useDeleteCard() {
  return useApiMutation((api, id: string) => api.request<void>(`/cards/${id}`, { method: 'DELETE' }), studyData);
}

/** DELETE /cards/{id}/source: the card (and its note's other cards) keep no quote, page or slide. */
export function useDeleteCardSource() {
  return useApiMutation(
    (api, id: string) => api.request<void>(`/cards/${encodeURIComponent(id)}/source`, { method: 'DELETE' }),
    studyData,
  );
}

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
