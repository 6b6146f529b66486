import { localStore } from './local-store';
import { storageKeys } from './storage-keys';

/** Where the bearer token lives between visits. */
export interface TokenStore {
  get(): string | null;
  set(token: string): void;
  remove(): void;
}

export const localTokenStore: TokenStore = {
  get: () => localStore.get(storageKeys.accessToken),
  set: (token) => localStore.set(storageKeys.accessToken, token),
  remove: () => localStore.remove(storageKeys.accessToken),
};
