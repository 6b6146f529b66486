import { createBrowserRouter, matchRoutes, RouterProvider } from 'react-router';
import { UpdateNotice } from '../components/update-notice';
import { createApiClient } from '../lib/api-client';
import { endSessionOnUnauthorized } from '../lib/auth-provider';
import { hardNavigate } from '../lib/navigation';
import { localTokenStore } from '../lib/token-store';
import { createQueryClient, Providers } from './providers';
import { routes } from './routes';

const queryClient = createQueryClient();
const api = createApiClient({
  tokens: localTokenStore,
  onUnauthorized: endSessionOnUnauthorized(queryClient, hardNavigate),
});

export type AppRouter = ReturnType<typeof createBrowserRouter>;

export function createAppRouter(): AppRouter {
  return createBrowserRouter(routes);
}

/**
 * Loads the code of the routes that match the address before the router starts, so that hydrating a prerendered
 * page renders that page at once (React Router's documented way), not the loading fallback that would replace it.
 */
export async function loadMatchedRoutes(): Promise<void> {
  const matches = matchRoutes(routes, window.location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const loaded = await route.lazy();
      Object.assign(route, { ...loaded, lazy: undefined });
    }),
  );
}

/** The app: one API client, one query cache and the router, wired to the browser. */
export function App({ router }: { router: AppRouter }) {
  return (
    <Providers api={api} tokens={localTokenStore} queryClient={queryClient} goTo={hardNavigate}>
      <RouterProvider router={router} />
      <UpdateNotice />
    </Providers>
  );
}
