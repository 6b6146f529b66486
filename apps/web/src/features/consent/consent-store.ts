import { useSyncExternalStore } from 'react';
import { localStore } from '../../lib/local-store';
import { storageKeys } from '../../lib/storage-keys';

/** Analytics consent: true, false, or unset (null) until the visitor chooses. */
export type Consent = boolean | null;

const listeners = new Set<() => void>();

function read(): Consent {
  const stored = localStore.get(storageKeys.analyticsConsent);
  return stored === 'true' ? true : stored === 'false' ? false : null;
}

export function setAnalyticsConsent(value: boolean): void {
  localStore.set(storageKeys.analyticsConsent, String(value));
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab changing the choice updates this one too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === storageKeys.analyticsConsent || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useAnalyticsConsent(): Consent {
  return useSyncExternalStore(subscribe, read, () => null);
}
