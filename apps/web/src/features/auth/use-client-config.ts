import type { ClientConfig } from '@flashcards/shared/api-types';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../lib/api-context';

/** GET /api/config: which sign-in options this server offers. */
export function useClientConfig() {
  const api = useApi();
  return useQuery({
    queryKey: ['client-config'],
    queryFn: () => api.get<ClientConfig>('/api/config'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
