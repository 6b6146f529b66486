import type {
  Card,
  Deck,
  DeckSettings,
  DeckSettingsUpdate,
  DeckStats,
  DeckWithCards,
  SaveCardsResponse,
} from '@flashcards/shared/api-types';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../lib/api-context';

/** Query keys for everything deck- and card-shaped, so that a change invalidates exactly what it touches. */
export const deckKeys = {
  all: ['decks'] as const,
  deck: (id: string) => ['decks', id] as const,
  cards: (id: string) => ['decks', id, 'cards'] as const,
  stats: (id: string | 'all') => ['decks', 'stats', id] as const,
  due: (deckId: string | 'all') => ['cards', 'due', deckId] as const,
};

/** After any write to decks or cards: lists, counts, stats and queues are all stale. */
export function invalidateStudyData(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ['decks'] }),
    queryClient.invalidateQueries({ queryKey: ['cards'] }),
  ]);
}

export function useDecks() {
  const api = useApi();
  return useQuery({ queryKey: deckKeys.all, queryFn: () => api.get<Deck[]>('/decks') });
}

export function useDeck(id: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: deckKeys.deck(id ?? ''),
    queryFn: () => api.get<DeckWithCards>(`/decks/${id}`),
    enabled: Boolean(id),
  });
}

export function useDeckCards(id: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: deckKeys.cards(id ?? ''),
    queryFn: () => api.get<Card[]>(`/decks/${id}/cards`),
    enabled: Boolean(id),
  });
}

/** Stats of one deck, or over all decks when `id` is undefined. */
export function useDeckStats(id?: string) {
  const api = useApi();
  return useQuery({
    queryKey: deckKeys.stats(id ?? 'all'),
    queryFn: () => api.get<DeckStats>(id ? `/decks/${id}/stats` : '/decks/stats'),
  });
}

export function useCreateDeck() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.post<Deck>('/decks', { form: { deck_name: name } }),
    onSuccess: () => invalidateStudyData(queryClient),
  });
}

export function useDeleteDeck() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.request<void>(`/decks/${id}`, { method: 'DELETE' }),
    onSuccess: () => invalidateStudyData(queryClient),
  });
}

export function useUpdateDeckSettings(id: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: DeckSettingsUpdate) =>
      api.request<DeckSettings>(`/decks/${id}/settings`, { method: 'PUT', json: settings }),
    onSuccess: () => invalidateStudyData(queryClient),
  });
}

export function useSaveCards() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { deckId: string; cards: { question: string; answer: string }[] }) =>
      api.post<SaveCardsResponse>('/save-cards', { json: { deck_id: input.deckId, cards: input.cards } }),
    onSuccess: () => invalidateStudyData(queryClient),
  });
}

export function useUpdateCard() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; question: string; answer: string }) =>
      api.request<Card>(`/cards/${input.id}`, {
        method: 'PUT',
        json: { question: input.question, answer: input.answer },
      }),
    onSuccess: () => invalidateStudyData(queryClient),
  });
}

export function useDeleteCard() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.request<void>(`/cards/${id}`, { method: 'DELETE' }),
    onSuccess: () => invalidateStudyData(queryClient),
  });
}
