import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeServer, json, never } from '../../test/fake-server';
import { renderApp, testUser } from '../../test/render-app';
import { localStore } from '../lib/local-store';
import { storageKeys } from '../lib/storage-keys';

const signedIn = () => localStore.set(storageKeys.accessToken, 'token');
const meOk = { 'GET /users/me': () => json(200, testUser), 'GET /api/config': () => json(200, config) };
const config = { google_client_id: null, ai_provider: 'offline', payment_mode: 'test' };
const visitor = { 'GET /api/config': () => json(200, config) };

async function settledPath(router: ReturnType<typeof renderApp>['router'], expected: string) {
  await waitFor(() => expect(router.state.location.pathname).toBe(expected));
}

describe('route guards and redirects', () => {
  it.each(['/create', '/review', '/account', '/quiz'])('sends a visitor from %s to /login', async (path) => {
    const { router } = renderApp(path, fakeServer(visitor).fetch);
    await settledPath(router, '/login');
    expect(await screen.findByRole('tab', { name: 'Login' })).toBeInTheDocument();
  });

  it.each(['/create', '/review', '/account', '/quiz'])('lets a signed-in user open %s', async (path) => {
    signedIn();
    const { router } = renderApp(path, fakeServer(meOk).fetch);
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(path);
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
  });

  it.each(['/', '/nowhere', '/best-for/astronauts'])('sends a visitor from %s to /login', async (path) => {
    const { router } = renderApp(path, fakeServer(visitor).fetch);
    await settledPath(router, '/login');
  });

  it.each(['/', '/nowhere', '/login'])('sends a signed-in user from %s to /review', async (path) => {
    signedIn();
    const { router } = renderApp(path, fakeServer(meOk).fetch);
    await settledPath(router, '/review');
    expect(await screen.findByRole('heading', { name: 'Review' })).toBeInTheDocument();
  });

  it('shows Loading... while the stored session is being checked', async () => {
    signedIn();
    const server = fakeServer({ 'GET /users/me': never });
    const { router } = renderApp('/create', server.fetch);
    await waitFor(() => expect(server.calls.map((call) => call.path)).toContain('/users/me'));
    await waitFor(() => expect(router.state.initialized).toBe(true));
    expect(screen.getByText(messages.loading)).toBeInTheDocument();
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/create');
  });

  it('keeps public pages public', async () => {
    for (const path of ['/privacy', '/privacy-settings', '/best-for/teachers']) {
      const { router, unmount } = renderApp(path, fakeServer(visitor).fetch);
      expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe(path);
      unmount();
    }
  });

  it('signing in on /login leads to /create', async () => {
    const server = fakeServer({
      ...visitor,
      'POST /login': () => json(200, { access_token: 'fresh', token_type: 'bearer' }),
      'GET /users/me': () => json(200, testUser),
    });
    const { router } = renderApp('/login', server.fetch);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), testUser.email);
    await user.type(screen.getByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await settledPath(router, '/create');
    expect(await screen.findByRole('heading', { name: 'Create Cards' })).toBeInTheDocument();
  });

  it('signing up with a pending shared deck leads back to that deck', async () => {
    localStore.set(storageKeys.pendingShareImport, 'abc123');
    const server = fakeServer({
      ...visitor,
      'POST /signup': () => json(201, testUser),
      'POST /login': () => json(200, { access_token: 'fresh', token_type: 'bearer' }),
      'GET /users/me': () => json(200, testUser),
      'GET /shared/abc123': never,
      'POST /shared/abc123/import': never,
    });
    const { router } = renderApp('/login', server.fetch);
    const user = userEvent.setup();
    expect(await screen.findByText(messages.shareLoginPrompt)).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    await user.type(screen.getByLabelText('Name'), 'Ada');
    await user.type(screen.getByLabelText('Email'), testUser.email);
    await user.type(screen.getByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    await settledPath(router, '/share/abc123');
  });

  it('a 401 on a signed-in request removes the token and goes to /', async () => {
    signedIn();
    const server = fakeServer({
      ...meOk,
      'POST /shared/abc/import': () =>
        json(401, { detail: serverMessages.notAuthenticated, code: 'not_authenticated' }),
      'GET /shared/abc': () =>
        json(200, {
          deck_name: 'Deck',
          owner_name: 'Bob',
          card_count: 1,
          shared_at: '2026-11-01T00:00:00.000Z',
          expires_at: '2026-12-01T09:00:00.000Z',
        }),
    });
    const { goTo } = renderApp('/share/abc', server.fetch);
    const button = await screen.findByRole('button', { name: 'Import Deck' });
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.setup().click(button);
    await waitFor(() => expect(goTo).toHaveBeenCalledWith('/'));
    expect(localStore.get(storageKeys.accessToken)).toBeNull();
  });
});
