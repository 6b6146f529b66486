import type { ForecastResponse, HistoryResponse, OptimizeResponse, SchedulingInfo } from '@flashcards/shared/api-types';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../lib/api-context';

const deckQuery = (deckId: string | undefined) => (deckId ? `&deck_id=${encodeURIComponent(deckId)}` : '');

export const statsKeys = {
  history: (deckId: string | undefined) => ['stats', 'history', deckId ?? 'all'] as const,
  forecast: (deckId: string | undefined) => ['stats', 'forecast', deckId ?? 'all'] as const,
  scheduling: ['scheduling'] as const,
};

/** A year of reviews per study day, the streak and the 30-day retention. */
export function useHistory(deckId: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: statsKeys.history(deckId),
    queryFn: () => api.get<HistoryResponse>(`/stats/history?days=365${deckQuery(deckId)}`),
  });
}

/** The next 30 study days' due cards, today (with the overdue ones) first. */
export function useForecast(deckId: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: statsKeys.forecast(deckId),
    queryFn: () => api.get<ForecastResponse>(`/stats/forecast?days=30${deckQuery(deckId)}`),
  });
}

export function useScheduling() {
  const api = useApi();
  return useQuery({ queryKey: statsKeys.scheduling, queryFn: () => api.get<SchedulingInfo>('/scheduling') });
}

export function useOptimize() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<OptimizeResponse>('/scheduling/optimize'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: statsKeys.scheduling }),
  });
}

export function useResetScheduling() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.request<void>('/scheduling/parameters', { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: statsKeys.scheduling }),
  });
}
