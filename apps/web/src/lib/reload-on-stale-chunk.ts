import { sessionKeys } from './storage-keys';

/**
 * A deployment replaced the hashed chunks this page refers to: reload once to get the current build (once per tab
 * session, so that a chunk missing from the current build too cannot loop). Both entries (main.tsx and
 * public-main.tsx) call it first.
 */
export function reloadOnStaleChunk(): void {
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
}
