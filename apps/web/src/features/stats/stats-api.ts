import type { ForecastResponse, HistoryResponse, OptimizeResponse, SchedulingInfo } from '@flashcards/shared/api-types';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../lib/api-context';
import { useAuth } from '../auth/auth-context';

const deckQuery = (deckId: string | undefined) => (deckId ? `&deck_id=${encodeURIComponent(deckId)}` : '');

/** Statistics are per study day in the learner's zone: a zone saved after sign-in asks for them again. */
export const statsKeys = {
  history: (deckId: string | undefined, zone = '') => ['stats', 'history', deckId ?? 'all', zone] as const,
  forecast: (deckId: string | undefined, zone = '') => ['stats', 'forecast', deckId ?? 'all', zone] as const,
  scheduling: ['scheduling'] as const,
};

/** A year of reviews per study day, the streak and the 30-day retention. */
export function useHistory(deckId: string | undefined) {
  const api = useApi();
  const zone = useAuth().user?.time_zone;
  return useQuery({
    queryKey: statsKeys.history(deckId, zone),
    queryFn: () => api.get<HistoryResponse>(`/stats/history?days=365${deckQuery(deckId)}`),
  });
}

/** The next 30 study days' due cards, today (with the overdue ones) first. */
export function useForecast(deckId: string | undefined) {
  const api = useApi();
  const zone = useAuth().user?.time_zone;
  return useQuery({
    queryKey: statsKeys.forecast(deckId, zone),
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
