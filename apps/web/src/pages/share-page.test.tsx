import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json } from '../../test/fake-server';
import { renderApp, signedInServer, testUser } from '../../test/render-app';
import { localStore } from '../lib/local-store';
import { storageKeys } from '../lib/storage-keys';
import { importRedirectDelayMs } from './share-page';

const info = {
  deck_name: '<b>Biology</b> 101',
  owner_name: 'Bob',
  card_count: 12,
  shared_at: '2026-11-01T09:00:00.000Z',
  expires_at: '2026-12-01T09:00:00.000Z',
  preview: [
    { question: 'What is **osmosis**?', answer: 'Water crossing a membrane.' },
    { question: 'Energy of a photon?', answer: '$E = h\\nu$' },
  ],
};
const config = {
  'GET /api/config': () => json(200, { google_client_id: null, ai_provider: 'offline', payment_mode: 'test' }),
};

afterEach(() => {
  vi.useRealTimers();
});

describe('shared deck page', () => {
  it('shows the deck name (as text), owner, card count and shared-on date', async () => {
    renderApp('/share/code1', fakeServer({ 'GET /shared/code1': () => json(200, info) }).fetch);
    expect(await screen.findByRole('heading', { name: '<b>Biology</b> 101' })).toBeInTheDocument();
    expect(screen.getByText('Bob')).toBeInTheDocument();
    expect(screen.getByText('12')).toBeInTheDocument();
    expect(document.querySelector('time')?.getAttribute('datetime')).toBe(info.shared_at);
    expect(screen.getByRole('button', { name: 'Import Deck' })).toBeInTheDocument();
  });

  it('lists the first cards rendered (markdown and math) to a visitor, each flipped to its answer and back', async () => {
    renderApp('/share/code1', fakeServer({ 'GET /shared/code1': () => json(200, info) }).fetch);
    const list = await screen.findByRole('region', { name: 'Cards in this deck' });
    expect(within(list).getByText('The first 2 of 12 cards. Import the deck to study them all.')).toBeInTheDocument();
    const first = within(list).getByRole('listitem', { name: 'Card 1 of 2' });
    // Rendered, not raw: the bold word is a <strong>, and the math becomes KaTeX once the renderer has loaded.
    expect(await within(first).findByText('osmosis', { selector: 'strong' })).toBeInTheDocument();
    expect(within(first).queryByText('Water crossing a membrane.')).not.toBeInTheDocument();
    fireEvent.click(within(first).getByRole('button', { name: 'Show answer' }));
    expect(within(first).getByText('Water crossing a membrane.')).toBeInTheDocument();
    expect(within(first).getByText('osmosis', { selector: 'strong' })).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Show question' })).toHaveAttribute('aria-expanded', 'true');
    fireEvent.click(within(first).getByRole('button', { name: 'Show question' }));
    expect(within(first).queryByText('Water crossing a membrane.')).not.toBeInTheDocument();
    const second = within(list).getByRole('listitem', { name: 'Card 2 of 2' });
    fireEvent.click(within(second).getByRole('button', { name: 'Show answer' }));
    await waitFor(() => expect(second.querySelector('.katex')).not.toBeNull());
  });

  it('says so when the shared deck has no cards, and shows no count line when all cards are shown', async () => {
    const empty = { ...info, card_count: 0, preview: [] };
    renderApp('/share/code1', fakeServer({ 'GET /shared/code1': () => json(200, empty) }).fetch);
    const list = await screen.findByRole('region', { name: 'Cards in this deck' });
    expect(within(list).getByText('This deck has no cards yet.')).toBeInTheDocument();
    expect(within(list).queryByRole('list')).not.toBeInTheDocument();
  });

  it.each([
    [404, { detail: 'Not found.', code: 'share_not_found' }, messages.shareNotFound],
    [410, { detail: 'Expired.', code: 'share_expired' }, messages.shareExpired],
    [429, { detail: serverMessages.rateLimited, code: 'rate_limited' }, serverMessages.rateLimited],
    [500, null, messages.sharedDeckLoadFailed],
  ])('answers a %i with the right message', async (status, body, text) => {
    renderApp('/share/code1', fakeServer({ 'GET /shared/code1': () => json(status, body) }).fetch);
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
  });

  it('without a code says the link is invalid', async () => {
    renderApp('/share', fakeServer({}).fetch);
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid share link.');
  });

  it('sends a visitor to /login with the code kept as the pending import', async () => {
    const { router } = renderApp(
      '/share/code1',
      fakeServer({ ...config, 'GET /shared/code1': () => json(200, info) }).fetch,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Import Deck' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(localStore.get(storageKeys.pendingShareImport)).toBe('code1');
    expect(await screen.findByText(messages.shareLoginPrompt)).toBeInTheDocument();
  });

  it('imports for a signed-in user and goes to /review 3 seconds later', async () => {
    const server = signedInServer({
      'GET /shared/code1': () => json(200, info),
      'POST /shared/code1/import': () => json(201, { _id: '65a1b2c3d4e5f6a7b8c9d0e2', name: 'Biology 101' }),
    });
    const { router } = renderApp('/share/code1', server.fetch);
    const button = await screen.findByRole('button', { name: 'Import Deck' });
    await waitFor(() => expect(button).toBeEnabled());
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fireEvent.click(button);
    expect(await screen.findByText('Deck "Biology 101" imported! Taking you to your decks...')).toBeInTheDocument();
    await act(async () => vi.advanceTimersByTime(importRedirectDelayMs - 100));
    expect(router.state.location.pathname).toBe('/share/code1');
    await act(async () => vi.advanceTimersByTime(200));
    await waitFor(() => expect(router.state.location.pathname).toBe('/review'));
    expect(importRedirectDelayMs).toBe(3000);
  });

  it('imports the pending deck by itself after sign-in, once', async () => {
    localStore.set(storageKeys.accessToken, 'token');
    localStore.set(storageKeys.pendingShareImport, 'code1');
    const server = fakeServer({
      'GET /users/me': () => json(200, testUser),
      'GET /shared/code1': () => json(200, info),
      'POST /shared/code1/import': () => json(201, { _id: '65a1b2c3d4e5f6a7b8c9d0e2', name: 'Biology 101' }),
    });
    renderApp('/share/code1', server.fetch);
    expect(await screen.findByText(/imported! Taking you to your decks/)).toBeInTheDocument();
    expect(server.calls.filter((call) => call.method === 'POST')).toHaveLength(1);
    expect(localStore.get(storageKeys.pendingShareImport)).toBeNull();
  });

  it('shows the server detail, or the fallback, when the import fails', async () => {
    localStore.set(storageKeys.accessToken, 'token');
    let answer = json(409, { detail: 'You already imported this deck.', code: 'already_imported' });
    const server = fakeServer({
      'GET /users/me': () => json(200, testUser),
      'GET /shared/code1': () => json(200, info),
      'POST /shared/code1/import': () => answer,
    });
    renderApp('/share/code1', server.fetch);
    const button = await screen.findByRole('button', { name: 'Import Deck' });
    await waitFor(() => expect(button).toBeEnabled());
    fireEvent.click(button);
    expect(await screen.findByRole('alert')).toHaveTextContent('You already imported this deck.');
    answer = new Response(null, { status: 500 });
    fireEvent.click(screen.getByRole('button', { name: 'Import Deck' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(messages.importFailed));
  });
});
