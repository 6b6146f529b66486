import type { User } from '@flashcards/shared/api-types';
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { type ApiClient, isOfflineError } from './api-client';
import { AuthContextProvider, type AuthProviderProps, useSignIn } from './auth-context';
import { browserTimeZone } from './time-zone';
import type { TokenStore } from './token-store';

/** The signed-in user's query: null when signed out. Set on sign-in, cleared on sign-out, invalidated on a 401. */
export const currentUserKey = ['users', 'me'] as const;

const noop = () => null;

/** The API client's `onUnauthorized`: the user's query learns that the token is gone, then `goTo('/')`. */
export const endSessionOnUnauthorized = (queryClient: QueryClient, goTo: (path: string) => void) => () => {
  void queryClient.invalidateQueries({ queryKey: currentUserKey });
  goTo('/');
};

/**
 * The user of the stored token, or null without one. Only a 401 ends the stored session (the client removes the
 * token then): a request cut short by a navigation, a network failure or a server error leaves it for the next page
 * load. With no network at all, the user as last kept on the device opens the installed app offline.
 */
async function fetchCurrentUser(api: ApiClient, tokens: TokenStore): Promise<User | null> {
  if (!tokens.get()) return null;
  try {
    const me = await api.get<User>('/users/me', { quietUnauthorized: true });
    // Kept for review with no network; loaded apart so that the public pages' code does not carry it.
    void import('./offline-store').then(({ keepResponse }) => keepResponse('/users/me', me, Date.now()), noop);
    return me;
  } catch (error) {
    if (!isOfflineError(error)) return null;
    return await import('./offline-store').then(({ keptResponse }) => keptResponse<User>('/users/me'), noop);
  }
}

/** The app's auth: the signed-in user lives in React Query's cache under `currentUserKey`. */
export function AuthProvider({ children, ...deps }: AuthProviderProps) {
  const { api, tokens } = deps;
  const queryClient = useQueryClient();
  const { data, isPending } = useQuery({
    queryKey: currentUserKey,
    queryFn: () => fetchCurrentUser(api, tokens),
    // The answer is settled in fetchCurrentUser (a failure means signed out); it changes through sign-in and -out.
    retry: false,
    // Run with no network too (React Query would pause it): offline, the user kept on the device opens the app.
    networkMode: 'always',
    staleTime: Number.POSITIVE_INFINITY,
    // Without a token nobody is signed in: known at once, with no request.
    initialData: () => (tokens.get() ? undefined : null),
  });
  const user = data ?? null;
  const setUser = useCallback((next: User | null) => queryClient.setQueryData(currentUserKey, next), [queryClient]);
  const value = useSignIn(deps, { user, loading: isPending, setUser });

  // The study day follows the learner's time zone: once signed in, the browser's zone is saved when it differs.
  const zoneSynced = useRef<string | null>(null);
  useEffect(() => {
    const zone = browserTimeZone();
    if (!user || zone === null || user.time_zone === zone || zoneSynced.current === user._id) return;
    zoneSynced.current = user._id;
    api.request<{ time_zone: string }>('/users/me/settings', { method: 'PUT', json: { time_zone: zone } }).then(
      (saved) =>
        queryClient.setQueryData<User | null>(currentUserKey, (current) =>
          current && current._id === user._id ? { ...current, ...saved } : current,
        ),
      // A zone this server does not know keeps the one it has; nothing to show.
      () => {},
    );
  }, [api, user, queryClient]);

  return <AuthContextProvider value={value}>{children}</AuthContextProvider>;
}
