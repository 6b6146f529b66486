import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../../../test/support/api-error';
import { signUpAndLogIn } from '../../../test/support/factories';
import { postForm } from '../../../test/support/request-bodies';
import { rowById } from '../../../test/support/rows';
import { createDeck, learnerWithDeck, putDeckSettings, reviewCard, saveCards } from '../../../test/support/study';
import { useTestApp } from '../../../test/support/test-app';

const hex24 = /^[0-9a-f]{24}$/;

const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });

const deckKeys = [
  '_id',
  'card_count',
  'class_id',
  'created_at',
  'daily_new_card_limit',
  'desired_retention',
  'exam_date',
  'linked',
  'name',
  'tts',
];

describe('POST /decks', () => {
  it('creates a deck from the url-encoded form field deck_name and answers 201 Deck', async () => {
    const { headers, user } = await signUpAndLogIn(ctx.app);
    const response = await postForm(ctx.app, '/decks', headers, 'deck_name=%20Organic%20chemistry%20');
    expect(response.statusCode).toBe(201);
    const deck = response.json();
    expect(Object.keys(deck).sort()).toEqual(deckKeys);
    expect(deck).toEqual({
      _id: expect.stringMatching(hex24),
      name: 'Organic chemistry',
      daily_new_card_limit: 20,
      card_count: 0,
      created_at: new Date(ctx.clock.now()).toISOString(),
      desired_retention: 0.9,
      exam_date: null,
      tts: { question_lang: null, answer_lang: null, auto: false },
      class_id: null,
      linked: false,
    });
    const row = await ctx.database.db.selectFrom('decks').selectAll().where('id', '=', deck._id).executeTakeFirst();
    expect(row).toMatchObject({ user_id: user._id, name: 'Organic chemistry', daily_new_card_limit: 20 });
  });

  it('accepts a multipart form (a browser FormData)', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const form = new FormData();
    form.set('deck_name', 'Spanish verbs');
    const request = new Request('http://localhost/decks', { method: 'POST', body: form });
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/decks',
      headers: { ...headers, ...Object.fromEntries(request.headers) },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().name).toBe('Spanish verbs');
  });

  it.each([
    ['an empty name', 'deck_name=', messages.deckNameEmpty],
    ['a blank name', 'deck_name=%20%20%20', messages.deckNameEmpty],
    ['no name at all', 'other=1', messages.deckNameEmpty],
    ['a name over 200 characters', `deck_name=${'n'.repeat(201)}`, serverMessages.deckNameTooLong],
  ])('refuses %s with 422 and writes nothing', async (_label, payload, detail) => {
    const { headers, user } = await signUpAndLogIn(ctx.app);
    const response = await postForm(ctx.app, '/decks', headers, payload);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ detail, code: 'validation_failed', errors: [{ field: 'deck_name' }] });
    const rows = await ctx.database.db.selectFrom('decks').select('id').where('user_id', '=', user._id).execute();
    expect(rows).toHaveLength(0);
  });

  it('accepts a name of exactly 200 characters', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const deck = await createDeck(ctx.app, headers, 'n'.repeat(200));
    expect(deck.name).toHaveLength(200);
  });

  it('needs a login', async () => {
    const response = await postForm(ctx.app, '/decks', {}, 'deck_name=x');
    expectError(response, 401, 'not_authenticated', serverMessages.notAuthenticated);
  });
});

describe('GET /decks and GET /decks/{id}', () => {
  it('lists only the caller’s decks, oldest first, with their card counts', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const other = await signUpAndLogIn(ctx.app);
    await createDeck(ctx.app, other.headers, 'Not mine');
    const first = await createDeck(ctx.app, headers, 'First');
    ctx.clock.advance(1000);
    const second = await createDeck(ctx.app, headers, 'Second');
    await saveCards(ctx.app, headers, second._id, 3);

    const response = await ctx.app.inject({ method: 'GET', url: '/decks', headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      { ...first, card_count: 0, counts: { new: 0, learning: 0, due: 0 } },
      { ...second, card_count: 3, counts: { new: 3, learning: 0, due: 0 } },
    ]);
  });

  it('answers an empty list for a new account', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const response = await ctx.app.inject({ method: 'GET', url: '/decks', headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it('returns one deck with its flashcards', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const deck = await createDeck(ctx.app, headers, 'Physics');
    const cards = await saveCards(ctx.app, headers, deck._id, 2);
    const response = await ctx.app.inject({ method: 'GET', url: `/decks/${deck._id}`, headers });
    expect(response.statusCode).toBe(200);
    // GET /decks/{id} is the older whole-deck shape: its flashcards leave out `images` (docs/api.md).
    const flashcards = cards.map(({ images: _images, ...card }) => card);
    expect(response.json()).toEqual({ ...deck, card_count: 2, flashcards, flashcards_truncated: false });
  });

  it.each(['0123456789abcdef01234567', 'not-an-id', 'ABCDEF0123456789ABCDEF01'])(
    'answers 404 deck_not_found for %s',
    async (id) => {
      const { headers } = await signUpAndLogIn(ctx.app);
      const response = await ctx.app.inject({ method: 'GET', url: `/decks/${id}`, headers });
      expectError(response, 404, 'deck_not_found', serverMessages.deckNotFound);
    },
  );
});

describe('PUT /decks/{id}/settings', () => {
  it('sets the daily new-card limit and answers it', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    const response = await putDeckSettings(ctx.app, headers, deck._id, { daily_new_card_limit: 5 });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      daily_new_card_limit: 5,
      desired_retention: 0.9,
      exam_date: null,
      tts: { question_lang: null, answer_lang: null, auto: false },
    });
    const row = await rowById(ctx.database.db, 'decks', deck._id);
    expect(row.daily_new_card_limit).toBe(5);
  });

  it.each([
    [0, 0],
    ['12', 12],
    [9999, 9999],
  ])('accepts %j', async (value, stored) => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    const response = await putDeckSettings(ctx.app, headers, deck._id, { daily_new_card_limit: value });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      daily_new_card_limit: stored,
      desired_retention: 0.9,
      exam_date: null,
      tts: { question_lang: null, answer_lang: null, auto: false },
    });
  });

  it.each([[-1], [2.5], ['abc'], [null], [10000], [true]])('refuses %j with 422 and keeps the limit', async (value) => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    const response = await putDeckSettings(ctx.app, headers, deck._id, { daily_new_card_limit: value });
    expectValidationError(response, 'daily_new_card_limit', serverMessages.dailyLimitInvalid);
    const row = await rowById(ctx.database.db, 'decks', deck._id);
    expect(row.daily_new_card_limit).toBe(20);
  });

  it('answers 404 for a deck that does not exist', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const response = await ctx.app.inject({
      method: 'PUT',
      url: '/decks/0123456789abcdef01234567/settings',
      headers,
      payload: { daily_new_card_limit: 3 },
    });
    expectError(response, 404, 'deck_not_found', serverMessages.deckNotFound);
  });
});

describe('DELETE /decks/{id}', () => {
  it('answers 204 and removes the deck, its cards, its review history and its shares', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    const keep = await createDeck(ctx.app, headers, 'Keep');
    const cards = await saveCards(ctx.app, headers, deck._id, 3);
    const kept = await saveCards(ctx.app, headers, keep._id, 1);
    await reviewCard(ctx.app, headers, cards[0]?._id ?? '', 'pass');
    await reviewCard(ctx.app, headers, kept[0]?._id ?? '', 'fail');
    const share = await ctx.app.inject({ method: 'POST', url: `/decks/${deck._id}/share`, headers });
    expect(share.statusCode).toBe(200);

    const response = await ctx.app.inject({ method: 'DELETE', url: `/decks/${deck._id}`, headers });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');

    const db = ctx.database.db;
    expect(await db.selectFrom('decks').select('id').where('id', '=', deck._id).execute()).toHaveLength(0);
    expect(await db.selectFrom('cards').select('id').where('deck_id', '=', deck._id).execute()).toHaveLength(0);
    expect(await db.selectFrom('review_logs').select('id').where('deck_id', '=', deck._id).execute()).toHaveLength(0);
    expect(await db.selectFrom('shares').select('id').where('deck_id', '=', deck._id).execute()).toHaveLength(0);
    // The other deck is untouched.
    expect(await db.selectFrom('cards').select('id').where('deck_id', '=', keep._id).execute()).toHaveLength(1);
    expect(await db.selectFrom('review_logs').select('id').where('deck_id', '=', keep._id).execute()).toHaveLength(1);

    const again = await ctx.app.inject({ method: 'DELETE', url: `/decks/${deck._id}`, headers });
    expectError(again, 404, 'deck_not_found', serverMessages.deckNotFound);
  });
});
