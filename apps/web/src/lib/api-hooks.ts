import { type QueryKey, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, isOfflineError } from './api-client';
import { useApi } from './api-context';
import { getKeptOnDevice } from './offline-store';

/**
 * A read through the API client: GET `path`, cached under `queryKey`; no request while `path` is null. With
 * `keepPreviousWhile`, the answer under the previous key stays shown while the new one loads when that key passes.
 */
export function useApiGet<Result>(
  queryKey: QueryKey,
  path: string | null,
  {
    keepPreviousWhile,
    keepOnDevice = false,
  }: {
    keepPreviousWhile?: (previousKey: QueryKey) => boolean;
    /** Kept on the device for review with no network (offline-store.ts). */
    keepOnDevice?: boolean;
  } = {},
) {
  const api = useApi();
  return useQuery<Result>({
    queryKey,
    queryFn: () =>
      keepOnDevice
        ? getKeptOnDevice(path ?? '', (at) => api.get<Result>(at), isOfflineError)
        : api.get<Result>(path ?? ''),
    enabled: path !== null,
    // React Query holds a query back while the browser says it is offline; one kept on the device answers anyway.
    ...(keepOnDevice ? { networkMode: 'always' as const } : {}),
    placeholderData: (previous, previousQuery) =>
      keepPreviousWhile && previousQuery && keepPreviousWhile(previousQuery.queryKey) ? previous : undefined,
  });
}

/**
 * A write through the API client: `send` makes the request; once it succeeds, every query under each key of
 * `invalidates` is stale (and the mutation settles after they are marked).
 */
export function useApiMutation<Input, Result>(
  send: (api: ApiClient, input: Input) => Promise<Result>,
  invalidates: readonly QueryKey[] = [],
) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Input) => send(api, input),
    onSuccess: () => Promise.all(invalidates.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
