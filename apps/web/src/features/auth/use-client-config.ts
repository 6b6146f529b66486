import type { ClientConfig } from '@flashcards/shared/api-types';
import { useEffect, useSyncExternalStore } from 'react';
import type { ApiClient } from '../../lib/api-client';
import { useApi } from '../../lib/api-context';

interface ConfigState {
  value: ClientConfig | undefined;
  request: Promise<void> | null;
  listeners: Set<() => void>;
}

// One answer per API client, kept for the page's life: the public pages' light entry has no query cache to hold it.
const states = new WeakMap<ApiClient, ConfigState>();

function stateOf(api: ApiClient): ConfigState {
  let state = states.get(api);
  if (!state) {
    state = { value: undefined, request: null, listeners: new Set() };
    states.set(api, state);
  }
  return state;
}

/** Asks once; a failure (network, 5xx) is asked again by the next component that needs the config. */
function load(api: ApiClient, state: ConfigState): void {
  if (state.request || state.value) return;
  state.request = api.get<ClientConfig>('/api/config').then(
    (config) => {
      state.value = config;
      for (const listener of state.listeners) listener();
    },
    () => {
      state.request = null;
    },
  );
}

/** GET /api/config: which sign-in options this server offers (undefined until it answers, and in the prerender). */
export function useClientConfig(): { data: ClientConfig | undefined } {
  const api = useApi();
  const state = stateOf(api);
  useEffect(() => load(api, state), [api, state]);
  const data = useSyncExternalStore(
    (listener) => {
      state.listeners.add(listener);
      return () => state.listeners.delete(listener);
    },
    () => state.value,
    () => undefined,
  );
  return { data };
}
