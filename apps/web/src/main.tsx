import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, type AppRouter, createAppRouter, loadMatchedRoutes } from './app/app';
import { sessionKeys } from './lib/storage-keys';
import { localTokenStore } from './lib/token-store';
import './styles/global.css';

// A deployment replaced the hashed chunks this page refers to: reload once to get the current build.
window.addEventListener('vite:preloadError', (event) => {
  try {
    if (sessionStorage.getItem(sessionKeys.reloadedForChunk)) return;
    sessionStorage.setItem(sessionKeys.reloadedForChunk, '1');
  } catch {
    return;
  }
  event.preventDefault();
  window.location.reload();
});

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
const app = (router: AppRouter) => (
  <StrictMode>
    <App router={router} />
  </StrictMode>
);

// A public page arrives prerendered for a visitor (apps/web/scripts/prerender.mjs) and is hydrated; a signed-in
// browser sees another version of it (its own navigation bar, or a redirect), so it renders afresh, as it does on
// every other page (the signed-in shell's HTML is only there to paint before the code arrives).
if (root.dataset.prerendered === 'page' && localTokenStore.get() === null) {
  loadMatchedRoutes().then(
    () => hydrateRoot(root, app(createAppRouter())),
    () => createRoot(root).render(app(createAppRouter())),
  );
} else {
  createRoot(root).render(app(createAppRouter()));
}
