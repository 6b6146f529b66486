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

// A public page arrives prerendered for a visitor (apps/web/scripts/prerender.mjs) and is hydrated once its route's
// code is loaded; a signed-in browser sees another version of it (its own navigation bar, or a redirect), so it
// renders afresh, as every other page does (the signed-in shell's HTML only paints before the code arrives). The
// token is read right before rendering: one stored meanwhile (another tab signing in) must not meet a visitor's page.
const prerendered = root.dataset.prerendered === 'page';
const start = () => {
  const router = createAppRouter();
  if (prerendered && localTokenStore.get() === null) hydrateRoot(root, app(router));
  else createRoot(root).render(app(router));
};
if (prerendered) loadMatchedRoutes().then(start, start);
else start();
