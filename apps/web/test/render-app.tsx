import type { User } from '@flashcards/shared/api-types';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { createQueryClient, Providers } from '../src/app/providers';
import { routes } from '../src/app/routes';
import { createApiClient } from '../src/lib/api-client';
import { endSessionOnUnauthorized } from '../src/lib/auth-provider';
import { localStore } from '../src/lib/local-store';
import { storageKeys } from '../src/lib/storage-keys';
import { localTokenStore } from '../src/lib/token-store';
import { fakeServer, type Handler, json } from './fake-server';

export const testUser: User = {
  _id: '65a1b2c3d4e5f6a7b8c9d0e1',
  email: 'ada@example.com',
  name: 'Ada',
  created_at: '2026-11-22T10:00:00.000Z',
  // The browser's own zone, so that signing in does not set it again (that is tested on its own).
  time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
};

/**
 * Renders the real app (routes, guards, providers) at `path` in memory, talking to `fetch`. `goTo` stands for
 * the full page loads the app makes (logout, 401); tokens live in jsdom's local storage.
 */
export function renderApp(path: string | { pathname: string; state: unknown }, fetch: typeof globalThis.fetch) {
  const goTo = vi.fn();
  const logError = vi.fn();
  const queryClient = createQueryClient();
  const onUnauthorized = endSessionOnUnauthorized(queryClient, goTo);
  const api = createApiClient({ tokens: localTokenStore, onUnauthorized, fetch, logError });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <Providers api={api} tokens={localTokenStore} queryClient={queryClient} goTo={goTo}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...view, router, goTo, logError };
}

/** A signed-in visit: a token in local storage, and a fake server that knows the user (`testUser`) and `routes`. */
export function signedInServer(routes: Record<string, Handler>) {
  localStore.set(storageKeys.accessToken, 'token');
  return fakeServer({ 'GET /users/me': () => json(200, testUser), ...routes });
}
