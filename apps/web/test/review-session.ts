import type { Deck, DueCard } from '@flashcards/shared/api-types';
import { fireEvent, screen } from '@testing-library/react';
import { localStore } from '../src/lib/local-store';
import { storageKeys } from '../src/lib/storage-keys';
import { fakeServer, type Handler, json } from './fake-server';
import { renderApp, testUser } from './render-app';

/** Opens /review signed in, with one deck whose due queue is `cards`; `routes` add to or replace the defaults. */
export function startReview(deck: Deck, cards: DueCard[], routes: Record<string, Handler> = {}) {
  localStore.set(storageKeys.accessToken, 'token');
  const server = fakeServer({
    'GET /users/me': () => json(200, testUser),
    'GET /decks': () => json(200, [deck]),
    'GET /decks/stats': () => json(200, {}),
    [`GET /decks/${deck._id}/stats`]: () => json(200, {}),
    'GET /cards/due': () => json(200, cards),
    ...routes,
  });
  renderApp('/review', server.fetch);
  return server;
}

/** Starts the deck's session from the deck list and waits for its first question. */
export async function openSession(deck: Deck, question: string) {
  // The first render loads the page's code, which a machine busy with other tests takes longer over.
  fireEvent.click(await screen.findByRole('button', { name: `Review Deck: ${deck.name}` }, { timeout: 50_000 }));
  await screen.findByText(question);
}
