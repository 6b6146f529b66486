import type { StorageKey } from './storage-keys';

/**
 * Local storage that never throws: private modes and full quotas make the browser's storage fail, and the app
 * should then behave as if nothing was stored rather than crash.
 */
export const localStore = {
  get(key: StorageKey): string | null {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: StorageKey, value: string): void {
    try {
      window.localStorage.setItem(key, value);
    } catch {
      // Storage unavailable: the value lives only as long as the page.
    }
  },
  remove(key: StorageKey): void {
    try {
      window.localStorage.removeItem(key);
    } catch {
      // Nothing stored, nothing to remove.
    }
  },
};
