import { vi } from 'vitest';

export interface FakeCall {
  method: string;
  path: string;
  headers: Headers;
  body: string | null;
}

export type Handler = (call: FakeCall) => Response | Promise<Response>;

export function json(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/**
 * A fetch that answers from a table of `METHOD /path` handlers and records every call (and, in `urls`, each URL as
 * requested, query included). Unknown routes get the server's 404 body. A handler may return a promise that never
 * settles, to leave a request pending.
 */
export function fakeServer(routes: Record<string, Handler>) {
  const calls: FakeCall[] = [];
  const urls: string[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    urls.push(String(input));
    const url = new URL(String(input), 'http://app.test');
    const body = init?.body === undefined || init.body === null ? null : String(init.body);
    const call: FakeCall = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      headers: new Headers(init?.headers),
      body,
    };
    calls.push(call);
    const handler = routes[`${call.method} ${call.path}`];
    if (!handler) return json(404, { detail: 'Not found.', code: 'not_found' });
    const signal = init?.signal;
    return await new Promise<Response>((resolve, reject) => {
      signal?.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError')));
      Promise.resolve(handler(call)).then(resolve, reject);
    });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls, urls };
}

/** A promise that never settles: the request stays in flight. */
export const never = () => new Promise<Response>(() => {});
