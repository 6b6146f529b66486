import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { matchPath, type Navigator, Router } from 'react-router';
import { PublicApp, publicPages } from './app/public-app';
import { createApiClient } from './lib/api-client';
import { hardNavigate } from './lib/navigation';
import { reloadOnStaleChunk } from './lib/reload-on-stale-chunk';
import { localTokenStore } from './lib/token-store';

/**
 * The entry of the prerendered public pages (scripts/prerender.mjs) for a visitor: hydrates the page with its own
 * code only, about half of what the whole app loads first. A browser holding a token sees another version of these
 * pages (its navigation bar, or a redirect), and an address that is not one of them has no page here: both start
 * the whole app (main.tsx, whose built file the prerender names in #root's data-app-entry), which renders afresh.
 */

reloadOnStaleChunk();

/** Every navigation is a page load: the public pages arrive prerendered, the app's arrive with the app's code. */
const pageLoads: Navigator = {
  createHref: (to) => (typeof to === 'string' ? to : `${to.pathname ?? ''}${to.search ?? ''}${to.hash ?? ''}`),
  go: (delta) => window.history.go(delta),
  push: (to) => window.location.assign(pageLoads.createHref(to)),
  replace: (to) => window.location.replace(pageLoads.createHref(to)),
};

function startWholeApp(root: HTMLElement): void {
  const script = document.createElement('script');
  script.type = 'module';
  script.src = root.dataset.appEntry ?? '/';
  document.head.append(script);
}

async function start(): Promise<void> {
  const root = document.getElementById('root');
  if (!root) throw new Error('the page has no #root element');
  const page = publicPages.find((candidate) => matchPath(candidate.path, window.location.pathname));
  if (!page || localTokenStore.get() !== null) return startWholeApp(root);
  const Page = await page.load();
  // Read again after the page's code arrived: a token stored meanwhile (another tab signing in) needs the app.
  if (localTokenStore.get() !== null) return startWholeApp(root);
  const api = createApiClient({ tokens: localTokenStore, onUnauthorized: () => hardNavigate('/') });
  const { pathname, search, hash } = window.location;
  hydrateRoot(
    root,
    <StrictMode>
      <Router location={{ pathname, search, hash }} navigator={pageLoads}>
        <PublicApp api={api} tokens={localTokenStore} goTo={hardNavigate} page={page} Page={Page} />
      </Router>
    </StrictMode>,
  );
}

void start();
