import { useSyncExternalStore } from 'react';
import { localStore } from './local-store';
import { storageKeys } from './storage-keys';

/**
 * A visitor who presses Import Deck is sent to sign in first; the share code waits here meanwhile, and
 * afterwards the shared deck page imports it (/share/{code}).
 */
export const pendingImport = {
  get: () => localStore.get(storageKeys.pendingShareImport),
  set: (code: string) => localStore.set(storageKeys.pendingShareImport, code),
  clear: () => localStore.remove(storageKeys.pendingShareImport),
};

/** A visitor who follows a class's join link signs in first; the join code waits here meanwhile (/join/{code}). */
export const pendingJoin = {
  get: () => localStore.get(storageKeys.pendingClassJoin),
  set: (code: string) => localStore.set(storageKeys.pendingClassJoin, code),
  clear: () => localStore.remove(storageKeys.pendingClassJoin),
};

/** Where a visitor goes once signed in on /login: back to the class or deck they wanted, else to /create. */
export function afterSignInPath(): string {
  const joinCode = pendingJoin.get();
  if (joinCode) return `/join/${encodeURIComponent(joinCode)}`;
  const code = pendingImport.get();
  return code ? `/share/${encodeURIComponent(code)}` : '/create';
}

const noSubscription = () => () => {};

/**
 * Whether a shared deck waits for the visitor to sign in, read in a way hydration accepts: the prerendered /login
 * says no (there is no storage at build time), and the browser's answer follows right after.
 */
export function useImportPending(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => pendingImport.get() !== null,
    () => false,
  );
}
