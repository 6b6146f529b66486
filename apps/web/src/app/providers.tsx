import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { ApiClient } from '../lib/api-client';
import { ApiRequestError } from '../lib/api-client';
import { ApiProvider } from '../lib/api-context';
import { AuthProvider } from '../lib/auth-provider';
import type { TokenStore } from '../lib/token-store';

/** Queries retry once on a network error or a 5xx; a 4xx is an answer, not a hiccup. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        retry: (failures, error) =>
          failures < 1 && !(error instanceof ApiRequestError && error.status !== null && error.status < 500),
      },
      mutations: { retry: false },
    },
  });
}

export interface ProvidersProps {
  api: ApiClient;
  tokens: TokenStore;
  queryClient: QueryClient;
  goTo: (path: string) => void;
  children: ReactNode;
}

export function Providers({ api, tokens, queryClient, goTo, children }: ProvidersProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <ApiProvider client={api}>
        <AuthProvider api={api} tokens={tokens} goTo={goTo}>
          {children}
        </AuthProvider>
      </ApiProvider>
    </QueryClientProvider>
  );
}
