import { createBrowserRouter, RouterProvider } from 'react-router';
import { createApiClient } from '../lib/api-client';
import { hardNavigate } from '../lib/navigation';
import { localTokenStore } from '../lib/token-store';
import { createQueryClient, Providers } from './providers';
import { routes } from './routes';

const api = createApiClient({ tokens: localTokenStore, onUnauthorized: () => hardNavigate('/') });
const queryClient = createQueryClient();
const router = createBrowserRouter(routes);

/** The app: one API client, one query cache and the router, wired to the browser. */
export function App() {
  return (
    <Providers api={api} tokens={localTokenStore} queryClient={queryClient} goTo={hardNavigate}>
      <RouterProvider router={router} />
    </Providers>
  );
}
