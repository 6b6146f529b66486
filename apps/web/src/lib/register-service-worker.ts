import { registerSW } from 'virtual:pwa-register';
import { offerUpdate } from './app-update';

/** How often an open app asks whether a new version was deployed. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * Registers the installed app's service worker (vite.config.ts). A new version waits until the learner reloads
 * through the update notice, so a review in progress is never cut; the answers wait in IndexedDB meanwhile.
 */
export function registerServiceWorker(): void {
  const update = registerSW({
    onNeedRefresh: () => offerUpdate(() => void update(true)),
    onRegisteredSW: (_url, registration) => {
      if (registration) setInterval(() => void registration.update(), UPDATE_CHECK_MS);
    },
  });
}
