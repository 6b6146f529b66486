import { timeouts } from '@flashcards/shared/limits';
import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, never } from '../../test/fake-server';
import { ApiRequestError, createApiClient, errorDetail } from './api-client';
import type { TokenStore } from './token-store';

function memoryTokens(initial: string | null): TokenStore & { value: string | null } {
  const store = {
    value: initial,
    get: () => store.value,
    set: (token: string) => {
      store.value = token;
    },
    remove: () => {
      store.value = null;
    },
  };
  return store;
}

function setup(routes: Parameters<typeof fakeServer>[0], token: string | null = null) {
  const server = fakeServer(routes);
  const tokens = memoryTokens(token);
  const onUnauthorized = vi.fn();
  const logError = vi.fn();
  const api = createApiClient({ tokens, onUnauthorized, logError, fetch: server.fetch });
  return { api, tokens, onUnauthorized, logError, calls: server.calls };
}

async function caught(promise: Promise<unknown>): Promise<ApiRequestError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  if (!(error instanceof ApiRequestError)) throw new Error(`expected an ApiRequestError, got ${String(error)}`);
  return error;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('api client', () => {
  it('sends the stored token as a bearer token on every request, read afresh each time', async () => {
    const { api, tokens, calls } = setup({ 'GET /users/me': () => json(200, { ok: 1 }) }, 'first-token');
    await api.get('/users/me');
    tokens.value = 'second-token';
    await api.get('/users/me');
    tokens.value = null;
    await api.get('/users/me');
    expect(calls.map((call) => call.headers.get('authorization'))).toEqual([
      'Bearer first-token',
      'Bearer second-token',
      null,
    ]);
  });

  it('sends JSON bodies as JSON and form fields form-encoded', async () => {
    const { api, calls } = setup({
      'POST /signup': () => json(201, {}),
      'POST /login': () => json(200, { access_token: 't', token_type: 'bearer' }),
    });
    await api.post('/signup', { json: { email: 'a@b.co', password: 'pw', name: 'A' } });
    const token = await api.post<{ access_token: string }>('/login', { form: { username: 'a@b.co', password: 'p w' } });
    expect(token.access_token).toBe('t');
    expect(calls[0]?.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(calls[0]?.body ?? '')).toEqual({ email: 'a@b.co', password: 'pw', name: 'A' });
    expect(calls[1]?.body).toBe('username=a%40b.co&password=p+w');
  });

  it('on a 401 to a request that carried a token: removes the token and ends the session', async () => {
    const { api, tokens, onUnauthorized } = setup(
      { 'GET /decks': () => json(401, { detail: serverMessages.notAuthenticated, code: 'not_authenticated' }) },
      'stale-token',
    );
    const error = await caught(api.get('/decks'));
    expect(error).toMatchObject({ kind: 'http', status: 401, code: 'not_authenticated' });
    expect(error.detail).toBe(serverMessages.notAuthenticated);
    expect(tokens.value).toBeNull();
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('a 401 without a token (wrong password) is an ordinary error', async () => {
    const { api, onUnauthorized } = setup({
      'POST /login': () => json(401, { detail: serverMessages.invalidCredentials, code: 'invalid_credentials' }),
    });
    const error = await caught(api.post('/login', { form: { username: 'a@b.co', password: 'x' } }));
    expect(error.status).toBe(401);
    expect(errorDetail(error, messages.loginFailed)).toBe(serverMessages.invalidCredentials);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('the quiet start-up check removes a rejected token without leaving the page', async () => {
    const { api, tokens, onUnauthorized } = setup(
      { 'GET /users/me': () => json(401, { detail: serverMessages.notAuthenticated, code: 'not_authenticated' }) },
      'expired',
    );
    await caught(api.get('/users/me', { quietUnauthorized: true }));
    expect(tokens.value).toBeNull();
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('times out after 60 s by default and only logs the timeout message', async () => {
    vi.useFakeTimers();
    const { api, logError, onUnauthorized } = setup({ 'GET /decks': never }, 'token');
    const result = caught(api.get('/decks'));
    await vi.advanceTimersByTimeAsync(timeouts.defaultRequestMs - 1);
    expect(logError).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    const error = await result;
    expect(error).toMatchObject({ kind: 'timeout', status: null });
    expect(logError).toHaveBeenCalledExactlyOnceWith('Request timeout: The server took too long to respond');
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('lets generation wait 180 s', async () => {
    vi.useFakeTimers();
    const { api, logError } = setup({ 'POST /create': never }, 'token');
    const result = caught(api.post('/create', { formData: new FormData(), timeoutMs: timeouts.generationRequestMs }));
    await vi.advanceTimersByTimeAsync(timeouts.defaultRequestMs);
    expect(logError).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(timeouts.generationRequestMs - timeouts.defaultRequestMs);
    expect((await result).kind).toBe('timeout');
    expect(logError).toHaveBeenCalledWith(messages.requestTimeout);
  });

  it('reports a request that got no answer as a network error, and a server error with its detail', async () => {
    const { api } = setup({
      'GET /a': () => Promise.reject(new TypeError('Failed to fetch')),
      'GET /b': () => json(502, { detail: 'The AI service failed.', code: 'ai_unavailable' }),
      'GET /c': () => new Response('<html>bad gateway</html>', { status: 502 }),
    });
    expect((await caught(api.get('/a'))).kind).toBe('network');
    const withDetail = await caught(api.get('/b'));
    expect(errorDetail(withDetail, 'fallback')).toBe('The AI service failed.');
    expect(withDetail.code).toBe('ai_unavailable');
    expect(errorDetail(await caught(api.get('/c')), 'fallback')).toBe('fallback');
  });
});
