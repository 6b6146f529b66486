import { useSyncExternalStore } from 'react';

/**
 * A new version of the installed app that waits for the learner (its service worker installed, not yet in
 * charge): what reloads into it, or null. Set by register-service-worker.ts, read by the update notice.
 */
let reloadIntoUpdate: (() => void) | null = null;
const listeners = new Set<() => void>();

export function offerUpdate(reload: () => void): void {
  reloadIntoUpdate = reload;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The waiting version's reload, or null while none waits. */
export function useAppUpdate(): (() => void) | null {
  return useSyncExternalStore(
    subscribe,
    () => reloadIntoUpdate,
    () => null,
  );
}
