import type { ForecastResponse, HistoryResponse, OptimizeResponse, SchedulingInfo } from '@flashcards/shared/api-types';
import type { QueryKey } from '@tanstack/react-query';
import { useApiGet, useApiMutation } from '../../lib/api-hooks';
import { useAuth } from '../../lib/auth-context';

const deckQuery = (deckId: string | undefined) => (deckId ? `&deck_id=${encodeURIComponent(deckId)}` : '');

/** Statistics are per study day in the learner's zone: a zone saved after sign-in asks for them again. */
export const statsKeys = {
  history: (deckId: string | undefined, zone = '') => ['stats', 'history', deckId ?? 'all', zone] as const,
  forecast: (deckId: string | undefined, zone = '') => ['stats', 'forecast', deckId ?? 'all', zone] as const,
  scheduling: ['scheduling'] as const,
};

/**
 * When only the zone changed (saved just after sign-in), the figures shown stay until the new ones arrive instead
 * of the page falling back to its loading frame and jumping twice; another deck's figures never stand in.
 */
const sameDeck = (deckId: string | undefined) => (previousKey: QueryKey) => previousKey[2] === (deckId ?? 'all');

/** A year of reviews per study day, the streak and the 30-day retention. */
export function useHistory(deckId: string | undefined) {
  const zone = useAuth().user?.time_zone;
  return useApiGet<HistoryResponse>(statsKeys.history(deckId, zone), `/stats/history?days=365${deckQuery(deckId)}`, {
    keepPreviousWhile: sameDeck(deckId),
  });
}

/** The next 30 study days' due cards, today (with the overdue ones) first. */
export function useForecast(deckId: string | undefined) {
  const zone = useAuth().user?.time_zone;
  return useApiGet<ForecastResponse>(statsKeys.forecast(deckId, zone), `/stats/forecast?days=30${deckQuery(deckId)}`, {
    keepPreviousWhile: sameDeck(deckId),
  });
}

export function useScheduling() {
  return useApiGet<SchedulingInfo>(statsKeys.scheduling, '/scheduling');
}

export function useOptimize() {
  return useApiMutation((api) => api.post<OptimizeResponse>('/scheduling/optimize'), [statsKeys.scheduling]);
}

export function useResetScheduling() {
  return useApiMutation(
    (api) => api.request<void>('/scheduling/parameters', { method: 'DELETE' }),
    [statsKeys.scheduling],
  );
}
