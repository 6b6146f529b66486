import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpAndLogIn } from './support/factories';
import { createDeck, reviewCard, saveCards } from './support/study';
import { createTestApp, type TestContext } from './support/test-app';

/**
 * Access control by construction: every endpoint that takes a deck or card id answers a second user exactly as it
 * answers an id that never existed (404), and the owner's data is byte-for-byte unchanged afterwards.
 */

let ctx: TestContext;
let owner: { headers: { authorization: string }; user: { _id: string } };
let intruder: { headers: { authorization: string } };
let deckId: string;
let cardId: string;

const missingId = 'aaaaaaaaaaaaaaaaaaaaaaaa';

beforeAll(async () => {
  ctx = await createTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });
  owner = await signUpAndLogIn(ctx.app);
  intruder = await signUpAndLogIn(ctx.app);
  const deck = await createDeck(ctx.app, owner.headers, 'Private');
  deckId = deck._id;
  const cards = await saveCards(ctx.app, owner.headers, deckId, 3);
  cardId = cards[0]?._id ?? '';
  await reviewCard(ctx.app, owner.headers, cardId, 'pass');
  await reviewCard(ctx.app, owner.headers, cards[1]?._id ?? '', 'fail');
  const share = await ctx.app.inject({ method: 'POST', url: `/decks/${deckId}/share`, headers: owner.headers });
  expect(share.statusCode).toBe(200);
  // The intruder has data of their own, so that an accidental "any row" query would have something to find.
  const theirs = await createDeck(ctx.app, intruder.headers, 'Theirs');
  await saveCards(ctx.app, intruder.headers, theirs._id, 2);
});

afterAll(async () => {
  await ctx.close();
});

/** Every row of the owner's study data, serialized. */
async function ownerSnapshot(): Promise<string> {
  const db = ctx.database.db;
  const userId = owner.user._id;
  const tables = {
    decks: await db.selectFrom('decks').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    cards: await db.selectFrom('cards').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    review_logs: await db.selectFrom('review_logs').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    shares: await db.selectFrom('shares').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
  };
  return JSON.stringify(tables);
}

type Call = { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: object };

const deckNotFound = { detail: serverMessages.deckNotFound, code: 'deck_not_found' };
const cardNotFound = { detail: messages.cardNotFound, code: 'card_not_found' };

const matrix: [string, (deck: string, card: string) => Call, object][] = [
  ['GET /decks/{id}', (deck) => ({ method: 'GET', url: `/decks/${deck}` }), deckNotFound],
  ['DELETE /decks/{id}', (deck) => ({ method: 'DELETE', url: `/decks/${deck}` }), deckNotFound],
  [
    'PUT /decks/{id}/settings',
    (deck) => ({ method: 'PUT', url: `/decks/${deck}/settings`, payload: { daily_new_card_limit: 0 } }),
    deckNotFound,
  ],
  ['GET /decks/{id}/stats', (deck) => ({ method: 'GET', url: `/decks/${deck}/stats` }), deckNotFound],
  ['GET /decks/{id}/cards', (deck) => ({ method: 'GET', url: `/decks/${deck}/cards` }), deckNotFound],
  [
    'POST /save-cards',
    (deck) => ({
      method: 'POST',
      url: '/save-cards',
      payload: { deck_id: deck, cards: [{ question: 'Q', answer: 'A' }] },
    }),
    deckNotFound,
  ],
  ['GET /cards/due?deck_id', (deck) => ({ method: 'GET', url: `/cards/due?deck_id=${deck}` }), deckNotFound],
  ['POST /decks/{id}/share', (deck) => ({ method: 'POST', url: `/decks/${deck}/share` }), deckNotFound],
  [
    'POST /cards/review (pass)',
    (_deck, card) => ({ method: 'POST', url: '/cards/review', payload: { card_id: card, result: 'pass' } }),
    cardNotFound,
  ],
  [
    'POST /cards/review (fail)',
    (_deck, card) => ({ method: 'POST', url: '/cards/review', payload: { card_id: card, result: 'fail' } }),
    cardNotFound,
  ],
  [
    'PUT /cards/{id}',
    (_deck, card) => ({ method: 'PUT', url: `/cards/${card}`, payload: { question: 'Mine now', answer: 'Mine' } }),
    cardNotFound,
  ],
  ['DELETE /cards/{id}', (_deck, card) => ({ method: 'DELETE', url: `/cards/${card}` }), cardNotFound],
];

describe('another user’s deck and card ids', () => {
  it.each(matrix)('%s answers 404, exactly as for an id that does not exist', async (_name, call, expected) => {
    const before = await ownerSnapshot();
    const theirs = call(deckId, cardId);
    const response = await ctx.app.inject({ ...theirs, headers: intruder.headers });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(expected);

    const missing = call(missingId, missingId);
    const baseline = await ctx.app.inject({ ...missing, headers: intruder.headers });
    expect(baseline.statusCode).toBe(response.statusCode);
    expect(baseline.body).toBe(response.body);

    expect(await ownerSnapshot()).toBe(before);
  });

  it('leaves the owner’s data byte-for-byte unchanged after the whole matrix, and the owner still sees it all', async () => {
    const before = await ownerSnapshot();
    const ownerView = async () =>
      Promise.all(
        [`/decks/${deckId}`, '/decks', `/decks/${deckId}/stats`, '/decks/stats', '/cards/due'].map(async (url) => {
          const response = await ctx.app.inject({ method: 'GET', url, headers: owner.headers });
          expect(response.statusCode).toBe(200);
          return response.body;
        }),
      );
    const viewBefore = await ownerView();
    for (const [, call] of matrix) await ctx.app.inject({ ...call(deckId, cardId), headers: intruder.headers });
    expect(await ownerSnapshot()).toBe(before);
    expect(await ownerView()).toEqual(viewBefore);
    expect(JSON.parse(viewBefore[0] ?? '{}').flashcards).toHaveLength(3);
  });

  it('never lists the owner’s data to the other user', async () => {
    const get = async (url: string) => {
      const response = await ctx.app.inject({ method: 'GET', url, headers: intruder.headers });
      expect(response.statusCode).toBe(200);
      return response.json();
    };
    const decks = await get('/decks');
    expect(decks.map((deck: { name: string }) => deck.name)).toEqual(['Theirs']);
    const due = await get('/cards/due');
    expect(due.every((card: { deck_id: string }) => card.deck_id !== deckId)).toBe(true);
    expect(due).toHaveLength(2);
    expect(await get('/decks/stats')).toMatchObject({ total_cards: 2, new_cards: 2, cards_reviewed_today: 0 });
  });
});
