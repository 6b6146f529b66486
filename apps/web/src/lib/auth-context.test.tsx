import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { onlineManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeServer, json } from '../../test/fake-server';
import { testUser } from '../../test/render-app';
import { createApiClient } from './api-client';
import { type AuthState, useAuth, VisitorAuthProvider } from './auth-context';
import { AuthProvider, currentUserKey, endSessionOnUnauthorized } from './auth-provider';
import { localStore } from './local-store';
import { clearDevice, keepResponse } from './offline-store';
import { storageKeys } from './storage-keys';
import { localTokenStore } from './token-store';

/** Shows the auth state and hands it to the test. */
function Probe({ state }: { state: { current: AuthState | null } }) {
  const auth = useAuth();
  state.current = auth;
  return <p>{auth.loading ? messages.loading : (auth.user?.email ?? 'signed out')}</p>;
}

const token = { access_token: 'new-token', token_type: 'bearer' };

/** The app's auth (the user in React Query), or with `visitor` the public pages' (the user in component state). */
function renderAuth(routes: Parameters<typeof fakeServer>[0], { visitor = false } = {}) {
  const server = fakeServer(routes);
  const goTo = vi.fn();
  const queryClient = new QueryClient();
  const api = createApiClient({
    tokens: localTokenStore,
    onUnauthorized: endSessionOnUnauthorized(queryClient, goTo),
    fetch: server.fetch,
  });
  const state: { current: AuthState | null } = { current: null };
  const Provider = visitor ? VisitorAuthProvider : AuthProvider;
  const { unmount } = render(
    <QueryClientProvider client={queryClient}>
      <Provider api={api} tokens={localTokenStore} goTo={goTo}>
        <Probe state={state} />
      </Provider>
    </QueryClientProvider>,
  );
  const auth = () => {
    if (!state.current) throw new Error('not rendered');
    return state.current;
  };
  return { auth, api, goTo, queryClient, calls: server.calls, unmount };
}

async function failure(action: () => Promise<void>): Promise<string> {
  let message = '';
  await act(async () => {
    await action().catch((error: Error) => {
      message = error.message;
    });
  });
  return message;
}

describe('auth state', () => {
  it('without a stored token is signed out at once, without asking the server', () => {
    const { calls } = renderAuth({});
    expect(screen.getByText('signed out')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('with a stored token shows Loading... until the current user arrives', async () => {
    localStore.set(storageKeys.accessToken, 'stored');
    const { calls } = renderAuth({ 'GET /users/me': () => json(200, testUser) });
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    expect(await screen.findByText(testUser.email)).toBeInTheDocument();
    expect(calls[0]?.headers.get('authorization')).toBe('Bearer stored');
  });

  it('removes a stored token the server rejects, and ends signed out', async () => {
    localStore.set(storageKeys.accessToken, 'expired');
    const { goTo } = renderAuth({
      'GET /users/me': () => json(401, { detail: serverMessages.notAuthenticated, code: 'not_authenticated' }),
    });
    expect(await screen.findByText('signed out')).toBeInTheDocument();
    expect(localStore.get(storageKeys.accessToken)).toBeNull();
    expect(goTo).not.toHaveBeenCalled();
  });

  it('keeps a stored token when the start-up check is cut short (a navigation aborts it) or fails without a 401', async () => {
    // Nothing kept on the device from the tests before (the offline fallback below would show that user).
    await clearDevice();
    for (const failure of [
      () => Promise.reject(new DOMException('The user aborted a request.', 'AbortError')),
      () => Promise.reject(new TypeError('Failed to fetch')),
      () => json(503, { detail: serverMessages.serviceUnavailable, code: 'unavailable' }),
    ]) {
      localStore.set(storageKeys.accessToken, 'stored');
      const { unmount } = renderAuth({ 'GET /users/me': failure });
      expect(await screen.findByText('signed out')).toBeInTheDocument();
      expect(localStore.get(storageKeys.accessToken)).toBe('stored');
      unmount();
    }
  });

  it.each([
    ['the browser says it is online', true],
    ['the browser knows it is offline (React Query would pause a query)', false],
  ])('with no network, opens as the user last kept on the device, and keeps the token: %s', async (_, online) => {
    await clearDevice();
    await keepResponse('/users/me', testUser, 1);
    localStore.set(storageKeys.accessToken, 'stored');
    onlineManager.setOnline(online);
    try {
      const { unmount } = renderAuth({ 'GET /users/me': () => Promise.reject(new TypeError('Failed to fetch')) });
      expect(await screen.findByText(testUser.email)).toBeInTheDocument();
      expect(localStore.get(storageKeys.accessToken)).toBe('stored');
      unmount();
    } finally {
      onlineManager.setOnline(true);
      await clearDevice();
    }
  });

  it('login posts the form, stores the token, then loads the user', async () => {
    const { auth, calls } = renderAuth({
      'POST /login': () => json(200, token),
      'GET /users/me': () => json(200, testUser),
    });
    await act(() => auth().login('ada@example.com', 'secret-pass'));
    expect(await screen.findByText(testUser.email)).toBeInTheDocument();
    expect(localStore.get(storageKeys.accessToken)).toBe('new-token');
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(['POST /login', 'GET /users/me']);
    expect(calls[0]?.body).toBe('username=ada%40example.com&password=secret-pass');
    expect(calls[1]?.headers.get('authorization')).toBe('Bearer new-token');
  });

  it('login failure shows the server detail, or "Login failed" without one', async () => {
    const { auth } = renderAuth({
      'POST /login': ({ body }) =>
        body?.includes('ada')
          ? json(401, { detail: serverMessages.invalidCredentials, code: 'invalid_credentials' })
          : new Response('oops', { status: 500 }),
    });
    expect(await failure(() => auth().login('ada@example.com', 'wrong'))).toBe(serverMessages.invalidCredentials);
    expect(await failure(() => auth().login('bob@example.com', 'x'))).toBe('Login failed');
    expect(localStore.get(storageKeys.accessToken)).toBeNull();
  });

  it('signup registers, then logs in with the same email and password', async () => {
    const { auth, calls } = renderAuth({
      'POST /signup': () => json(201, testUser),
      'POST /login': () => json(200, token),
      'GET /users/me': () => json(200, testUser),
    });
    await act(() => auth().signup({ name: 'Ada', email: 'ada@example.com', password: 'secret-pass' }));
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'POST /signup',
      'POST /login',
      'GET /users/me',
    ]);
    expect(JSON.parse(calls[0]?.body ?? '')).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      password: 'secret-pass',
    });
    expect(await screen.findByText(testUser.email)).toBeInTheDocument();
  });

  it('signup failure shows the server detail, or "Signup failed" without one', async () => {
    let answer = json(409, { detail: serverMessages.emailTaken, code: 'email_taken' });
    const { auth, calls } = renderAuth({ 'POST /signup': () => answer });
    expect(await failure(() => auth().signup({ name: '', email: 'a@b.co', password: 'pw123456' }))).toBe(
      serverMessages.emailTaken,
    );
    answer = new Response(null, { status: 503 });
    expect(await failure(() => auth().signup({ name: '', email: 'a@b.co', password: 'pw123456' }))).toBe(
      'Signup failed',
    );
    expect(calls.every((call) => call.path === '/signup')).toBe(true);
  });

  it('Google login posts the credential; failure falls back to "Google login failed"', async () => {
    let ok = true;
    const { auth, calls } = renderAuth({
      'POST /google-login': () => (ok ? json(200, token) : new Response(null, { status: 502 })),
      'GET /users/me': () => json(200, testUser),
    });
    await act(() => auth().googleLogin('google-id-token'));
    expect(JSON.parse(calls[0]?.body ?? '')).toEqual({ credential: 'google-id-token' });
    expect(await screen.findByText(testUser.email)).toBeInTheDocument();
    ok = false;
    expect(await failure(() => auth().googleLogin('bad'))).toBe('Google login failed');
  });

  it('logout removes the token, clears the user and goes to /', async () => {
    localStore.set(storageKeys.accessToken, 'stored');
    const { auth, goTo } = renderAuth({ 'GET /users/me': () => json(200, testUser) });
    await screen.findByText(testUser.email);
    act(() => auth().logout());
    expect(await screen.findByText('signed out')).toBeInTheDocument();
    expect(localStore.get(storageKeys.accessToken)).toBeNull();
    expect(goTo).toHaveBeenCalledExactlyOnceWith('/');
    await waitFor(() => expect(auth().user).toBeNull());
  });

  it('keeps the signed-in user in the query cache: set on sign-in, null on sign-out', async () => {
    const { auth, queryClient } = renderAuth({
      'POST /login': () => json(200, token),
      'GET /users/me': () => json(200, testUser),
    });
    expect(queryClient.getQueryData(currentUserKey)).toBeNull();
    await act(() => auth().login('ada@example.com', 'secret-pass'));
    expect(queryClient.getQueryData(currentUserKey)).toEqual(testUser);
    act(() => auth().logout());
    expect(queryClient.getQueryData(currentUserKey)).toBeNull();
  });

  it('ends signed out when any request answers 401, and goes to /', async () => {
    localStore.set(storageKeys.accessToken, 'stored');
    const { api, goTo, queryClient } = renderAuth({
      'GET /users/me': () => json(200, testUser),
      'GET /decks': () => json(401, { detail: serverMessages.notAuthenticated, code: 'not_authenticated' }),
    });
    await screen.findByText(testUser.email);
    await act(() => api.get('/decks').catch(() => null));
    expect(await screen.findByText('signed out')).toBeInTheDocument();
    expect(queryClient.getQueryData(currentUserKey)).toBeNull();
    expect(localStore.get(storageKeys.accessToken)).toBeNull();
    expect(goTo).toHaveBeenCalledExactlyOnceWith('/');
  });

  it('on a public page (no query cache needed) signs a visitor in and out the same way', async () => {
    const { auth, calls, goTo } = renderAuth(
      { 'POST /login': () => json(200, token), 'GET /users/me': () => json(200, testUser) },
      { visitor: true },
    );
    expect(screen.getByText('signed out')).toBeInTheDocument();
    await act(() => auth().login('ada@example.com', 'secret-pass'));
    expect(screen.getByText(testUser.email)).toBeInTheDocument();
    expect(localStore.get(storageKeys.accessToken)).toBe('new-token');
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(['POST /login', 'GET /users/me']);
    act(() => auth().logout());
    expect(screen.getByText('signed out')).toBeInTheDocument();
    expect(goTo).toHaveBeenCalledExactlyOnceWith('/');
  });

  it('after sign-in saves the browser’s time zone when it differs from the account’s, once', async () => {
    localStore.set(storageKeys.accessToken, 'stored');
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const { auth, calls } = renderAuth({
      'GET /users/me': () => json(200, { ...testUser, time_zone: 'Pacific/Chatham' }),
      'PUT /users/me/settings': (call) => json(200, JSON.parse(call.body ?? '{}')),
    });
    await screen.findByText(testUser.email);
    await waitFor(() => expect(auth().user?.time_zone).toBe(zone));
    const puts = calls.filter((call) => call.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(puts[0]?.path).toBe('/users/me/settings');
    expect(JSON.parse(puts[0]?.body ?? '{}')).toEqual({ time_zone: zone });
  });

  it('leaves the time zone alone when it already matches the browser’s', async () => {
    localStore.set(storageKeys.accessToken, 'stored');
    const { calls } = renderAuth({ 'GET /users/me': () => json(200, testUser) });
    await screen.findByText(testUser.email);
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(['GET /users/me']);
  });
});
