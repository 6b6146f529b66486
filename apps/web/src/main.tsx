import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, type AppRouter, createAppRouter, loadMatchedRoutes } from './app/app';
import { reloadOnStaleChunk } from './lib/reload-on-stale-chunk';
import './styles/global.css';

reloadOnStaleChunk();
// The installed app's service worker exists in the built app only (vite.config.ts).
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  void import('./lib/register-service-worker').then(({ registerServiceWorker }) => registerServiceWorker());
}

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
const app = (router: AppRouter) => (
  <StrictMode>
    <App router={router} />
  </StrictMode>
);

// A public page's visitor is hydrated by public-main.tsx; the app reaches a prerendered page only for a browser
// holding a token, which sees another version of it (its own navigation bar, or a redirect), so it renders afresh,
// as on every other page (the signed-in shell's HTML only paints before the code arrives), once the route's code is
// in so that the page is not replaced by the loading fallback first.
const prerendered = root.dataset.prerendered === 'page';
const start = () => createRoot(root).render(app(createAppRouter()));
if (prerendered) loadMatchedRoutes().then(start, start);
else start();
