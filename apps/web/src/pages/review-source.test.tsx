import type { GenerateResponse } from '@flashcards/shared/api-types';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeServer, json } from '../../test/fake-server';
import { biologyDeck, freeQuota } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { dueCard, openReviewSession, reviewRoutes } from '../../test/review-session';
import { localStore } from '../lib/local-store';
import { storageKeys } from '../lib/storage-keys';

// Issue 36: review's "Source" control on the answer side, deleting a source, and regenerating from its passage.

const deckId = biologyDeck._id;
const deck = { ...biologyDeck, card_count: 2 };
const quote = 'The mitochondrion is the powerhouse of the cell.';
const paragraph = `Cells hold many organelles. ${quote} It makes ATP.`;
const sourced = 'c1aaaaaaaaaaaaaaaaaaaaaa';
const queue = [
  dueCard(sourced, 'Powerhouse of the cell?', 'The mitochondrion', {
    source: { document: 'cell-biology.pdf', page: 3, quote, paragraph },
    images: ['/media/figure-1.png'],
  }),
  dueCard('c2aaaaaaaaaaaaaaaaaaaaaa', 'Capital of France?', 'Paris'),
];
const regenerated: GenerateResponse = {
  cards: [
    {
      question: 'What does the mitochondrion make?',
      answer: 'ATP',
      source: { quote: 'It makes ATP.' },
      verified: true,
    },
    {
      question: 'What is the powerhouse of the cell?',
      answer: 'The mitochondrion',
      source: { quote },
      verified: true,
      duplicate_of: { card_id: sourced, question: 'Powerhouse of the cell?' },
    },
  ],
  cost: 1,
  remaining: 8,
};

type Routes = Parameters<typeof fakeServer>[0];

function start(routes: Routes = {}) {
  localStore.set(storageKeys.accessToken, 'token');
  localStore.set(storageKeys.onboardingShown, 'true');
  const server = fakeServer({
    ...reviewRoutes(deck, queue),
    'GET /api/subscription-status': () => json(200, freeQuota(9)),
    ...routes,
  });
  const forms: FormData[] = [];
  const fetch: typeof globalThis.fetch = (input, init) => {
    if (init?.body instanceof FormData) forms.push(init.body);
    return server.fetch(input, init);
  };
  const view = renderApp('/review', fetch);
  return { calls: server.calls, forms, router: view.router };
}

async function showAnswer(question: string) {
  await openReviewSession(deck.name, question);
  fireEvent.keyDown(document.body, { key: ' ' });
}

beforeEach(() => {
  localStorage.clear();
});

describe('review: the source of an AI card', { timeout: 90_000 }, () => {
  it('shows on the answer side only: the quote, the document and page, and the figure; S opens and closes it', async () => {
    start();
    await openReviewSession(deck.name, 'Powerhouse of the cell?');
    expect(screen.queryByRole('button', { name: /^Source/ })).toBeNull();
    fireEvent.keyDown(document.body, { key: ' ' });

    const toggle = await screen.findByRole('button', { name: /^Source/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveAttribute('aria-keyshortcuts', 'S');
    expect(screen.queryByText(quote)).toBeNull();
    fireEvent.click(toggle);
    const panel = screen.getByRole('region', { name: messages.sourceTitle });
    expect(within(panel).getByText(quote)).toBeInTheDocument();
    expect(within(panel).getByText('From cell-biology.pdf, Page 3')).toBeInTheDocument();
    expect(within(panel).getByRole('img')).toHaveAttribute('src', '/media/figure-1.png');
    expect(screen.getByRole('button', { name: /^Hide source/ })).toHaveAttribute('aria-expanded', 'true');

    fireEvent.keyDown(document.body, { key: 's' });
    expect(screen.queryByText(quote)).toBeNull();
    fireEvent.keyDown(document.body, { key: 'S' });
    expect(screen.getByText(quote)).toBeInTheDocument();

    // A card made by hand has no source: no control at all.
    fireEvent.keyDown(document.body, { key: 'd' });
    await screen.findByText('Capital of France?');
    fireEvent.keyDown(document.body, { key: ' ' });
    await screen.findByText('Paris');
    expect(screen.queryByRole('button', { name: /^Source/ })).toBeNull();
    fireEvent.keyDown(document.body, { key: 's' });
    expect(screen.queryByRole('region', { name: messages.sourceTitle })).toBeNull();
  });

  it('Delete source sends DELETE /cards/{id}/source and says so; a failure is shown and the quote stays', async () => {
    let fail = true;
    const { calls } = start({
      [`DELETE /cards/${sourced}/source`]: () =>
        fail ? json(500, { detail: 'Internal error', code: 'internal_error' }) : new Response(null, { status: 204 }),
    });
    await showAnswer('Powerhouse of the cell?');
    fireEvent.click(await screen.findByRole('button', { name: /^Source/ }));
    fireEvent.click(screen.getByRole('button', { name: messages.sourceDelete }));
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.sourceDeleteFailed);
    expect(screen.getByText(quote)).toBeInTheDocument();

    fail = false;
    fireEvent.click(screen.getByRole('button', { name: messages.sourceDelete }));
    expect(await screen.findByText(messages.sourceDeleted)).toBeInTheDocument();
    expect(screen.queryByText(quote)).toBeNull();
    expect(screen.queryByRole('button', { name: /^Source/ })).toBeNull();
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual([
      `/cards/${sourced}/source`,
      `/cards/${sourced}/source`,
    ]);
  });

  it('"Regenerate from this passage" generates from the paragraph on the create page, checked against the deck', async () => {
    const { calls, forms, router } = start({ 'POST /create': () => json(200, regenerated) });
    await showAnswer('Powerhouse of the cell?');
    fireEvent.click(await screen.findByRole('button', { name: /^Source/ }));
    fireEvent.click(screen.getByRole('button', { name: messages.sourceRegenerate }));

    await screen.findByRole('heading', { name: 'Generated Cards' });
    expect(router.state.location.pathname).toBe('/create');
    // The request is taken out of the history entry: a reload would not generate (and pay) again.
    expect(router.state.location.state).toBeNull();
    expect(calls.filter((call) => call.path === '/create')).toHaveLength(1);
    expect(forms).toHaveLength(1);
    expect(forms[0]?.get('text')).toBe(paragraph);
    expect(forms[0]?.get('deck_id')).toBe(deckId);
    expect(screen.getByLabelText('Text to turn into flashcards')).toHaveValue(paragraph);
    expect(screen.getByLabelText(messages.createCheckDeck)).toHaveValue(deckId);

    // The card the deck already has arrives unselected, naming the card it repeats; the save panel has the deck.
    const repeat = screen.getByRole('listitem', { name: 'Card 2' });
    expect(within(repeat).getByRole('checkbox')).not.toBeChecked();
    expect(
      within(repeat).getByText(fillMessage(messages.sourceDuplicate, { question: 'Powerhouse of the cell?' })),
    ).toBeInTheDocument();
    expect(within(screen.getByRole('listitem', { name: 'Card 1' })).getByRole('checkbox')).toBeChecked();
    await waitFor(() => expect(screen.getByLabelText('Deck')).toHaveValue(deckId));
  });
});
