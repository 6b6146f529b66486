import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../../../test/support/api-error';
import { signUpAndLogIn } from '../../../test/support/factories';
import { sendBrokenJson } from '../../../test/support/request-bodies';
import { rowById } from '../../../test/support/rows';
import {
  createDeck,
  learnerWithCard,
  learnerWithDeck,
  postSaveCards,
  reviewCard,
  saveCards,
} from '../../../test/support/study';
import { TEST_JWT_SECRET, useTestApp } from '../../../test/support/test-app';
import { createIdGenerator } from '../../adapters/ids';
import { memoryRateLimiters } from '../../adapters/rate-limit/rate-limiter';
import { buildApp } from '../../app';

const hex24 = /^[0-9a-f]{24}$/;
const cardKeys = [
  '_id',
  'answer',
  'card_type',
  'created_at',
  'deck_id',
  'due_date',
  'lapses',
  'note_id',
  'ord',
  'question',
  'reps',
  'status',
];

const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });

const cardCount = async (deckId: string) =>
  (await ctx.database.db.selectFrom('cards').select('id').where('deck_id', '=', deckId).execute()).length;

describe('POST /save-cards', () => {
  it('saves every card as new, due now, and answers 201 { saved, cards }', async () => {
    const { headers, user, deck } = await learnerWithDeck(ctx.app);
    const response = await postSaveCards(ctx.app, headers, {
      deck_id: deck._id,
      cards: [
        { question: ' What is $E=mc^2$? ', answer: 'Mass–energy equivalence' },
        // Extra fields (a quiz card's user_id and due_date) are ignored.
        { question: 'Q2', answer: 'A2', user_id: '', due_date: '2020-01-01T00:00:00.000Z' },
      ],
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['cards', 'saved', 'skipped_duplicates']);
    expect(body.saved).toBe(2);
    expect(body.skipped_duplicates).toBe(0);
    const now = new Date(ctx.clock.now()).toISOString();
    expect(body.cards).toHaveLength(2);
    for (const card of body.cards) expect(Object.keys(card).sort()).toEqual([...cardKeys, 'images', 'source'].sort());
    expect(body.cards[0]).toEqual({
      images: [],
      source: null,
      _id: expect.stringMatching(hex24),
      deck_id: deck._id,
      question: 'What is $E=mc^2$?',
      answer: 'Mass–energy equivalence',
      status: 'new',
      due_date: now,
      created_at: now,
      reps: 0,
      lapses: 0,
      // A card saved as { question, answer } is a basic note of its own.
      note_id: body.cards[0]._id,
      card_type: 'basic',
      ord: 0,
    });
    expect(body.cards[1]).toMatchObject({ question: 'Q2', answer: 'A2', status: 'new', due_date: now });

    const rows = await ctx.database.db
      .selectFrom('cards')
      .selectAll()
      .where('deck_id', '=', deck._id)
      .orderBy('id')
      .execute();
    expect(rows.map((row) => row.id)).toEqual(body.cards.map((card: { _id: string }) => card._id));
    expect(rows[0]).toMatchObject({
      user_id: user._id,
      state: 0,
      due: ctx.clock.now(),
      stability: 0,
      difficulty: 0,
      reps: 0,
      lapses: 0,
      last_review: null,
      first_reviewed_at: null,
    });
  });

  it.each([
    ['_id', '_id'],
    ['id', 'id'],
  ])('accepts the deck id as %s', async (_label, key) => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    const response = await postSaveCards(ctx.app, headers, {
      [key]: deck._id,
      cards: [{ question: 'Q', answer: 'A' }],
    });
    expect(response.statusCode).toBe(201);
    expect(await cardCount(deck._id)).toBe(1);
  });

  it('is all or nothing: one empty card refuses the whole batch', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    const response = await postSaveCards(ctx.app, headers, {
      deck_id: deck._id,
      cards: [
        { question: 'Fine', answer: 'Fine' },
        { question: '   ', answer: 'No question' },
      ],
    });
    expectValidationError(response, 'cards.1.question', messages.cardSidesEmpty);
    expect(await cardCount(deck._id)).toBe(0);
  });

  it('is all or nothing in the database too: a failing insert rolls back the cards before it', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    // 600 cards take two INSERT batches; an id clash in the second batch must undo the first one too.
    const [existing] = await saveCards(ctx.app, headers, deck._id, 1);
    const ids = createIdGenerator(ctx.clock);
    let calls = 0;
    const app = await buildApp({
      config: ctx.config,
      db: ctx.database.db,
      jwtSecret: TEST_JWT_SECRET,
      clock: ctx.clock,
      newId: () => {
        calls += 1;
        return calls === 550 ? (existing?._id ?? '') : ids();
      },
      google: null,
      rateLimiters: memoryRateLimiters(),
      logger: false,
    });
    await app.ready();
    try {
      const texts = Array.from({ length: 600 }, (_, index) => ({ question: `Q${index}`, answer: `A${index}` }));
      const response = await postSaveCards(app, headers, { deck_id: deck._id, cards: texts });
      expectError(response, 500, 'internal_error', serverMessages.internalError);
      expect(await cardCount(deck._id)).toBe(1);
    } finally {
      await app.close();
    }
  });

  it.each([
    [{ cards: [{ question: 'Q', answer: 'A' }] }, messages.noDeckSelected, 'deck_id'],
    [{ deck_id: '', cards: [{ question: 'Q', answer: 'A' }] }, messages.noDeckSelected, 'deck_id'],
    [{ deck_id: '0123456789abcdef01234567', cards: [] }, messages.noCardsSelected, 'cards'],
    [{ deck_id: '0123456789abcdef01234567' }, messages.noCardsSelected, 'cards'],
    [{ deck_id: '0123456789abcdef01234567', cards: [{ question: 'Q' }] }, messages.cardSidesEmpty, 'cards.0.answer'],
    [
      { deck_id: '0123456789abcdef01234567', cards: [{ question: 'Q', answer: 'a'.repeat(20_001) }] },
      serverMessages.cardSideTooLong,
      'cards.0.answer',
    ],
    [
      {
        deck_id: '0123456789abcdef01234567',
        cards: Array.from({ length: 1001 }, () => ({ question: 'Q', answer: 'A' })),
      },
      serverMessages.tooManyCards,
      'cards',
    ],
  ])('refuses %# with 422 and the rule it broke', async (payload, detail, field) => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const response = await postSaveCards(ctx.app, headers, payload);
    expectValidationError(response, field, detail);
  });

  it('accepts a side of exactly 20,000 characters', async () => {
    const { cards } = await learnerWithDeck(ctx.app, [{ question: 'q'.repeat(20_000), answer: 'A' }]);
    expect(cards[0]?.question).toHaveLength(20_000);
  });

  it.each(['0123456789abcdef01234567', 'nope'])('answers 404 deck_not_found for deck %s', async (deckId) => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const response = await postSaveCards(ctx.app, headers, {
      deck_id: deckId,
      cards: [{ question: 'Q', answer: 'A' }],
    });
    expectError(response, 404, 'deck_not_found', serverMessages.deckNotFound);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const response = await sendBrokenJson(ctx.app, 'POST', '/save-cards', headers, '{"cards": [');
    expectError(response, 400, 'bad_request', serverMessages.malformedJson);
  });
});

describe('GET /decks/{id}/cards', () => {
  it('lists the deck’s cards in the order they were saved', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    const other = await createDeck(ctx.app, headers, 'Other');
    const first = await saveCards(ctx.app, headers, deck._id, 2);
    ctx.clock.advance(5000);
    const second = await saveCards(ctx.app, headers, deck._id, 1);
    await saveCards(ctx.app, headers, other._id, 1);
    const response = await ctx.app.inject({ method: 'GET', url: `/decks/${deck._id}/cards`, headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([...first, ...second]);
  });

  it('answers 404 deck_not_found for an unknown deck', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const response = await ctx.app.inject({ method: 'GET', url: '/decks/0123456789abcdef01234567/cards', headers });
    expectError(response, 404, 'deck_not_found', serverMessages.deckNotFound);
  });
});

describe('PUT /cards/{id}', () => {
  it('changes the text, keeps the schedule, and answers 200 Card', async () => {
    const { headers, card } = await learnerWithCard(ctx.app);
    const reviewed = await reviewCard(ctx.app, headers, card._id, 'pass');
    ctx.clock.advance(1000);
    const response = await ctx.app.inject({
      method: 'PUT',
      url: `/cards/${card._id}`,
      headers,
      payload: { question: ' New question ', answer: 'New answer' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ...reviewed, question: 'New question', answer: 'New answer' });
    const row = await rowById(ctx.database.db, 'cards', card._id);
    expect(row).toMatchObject({ question: 'New question', answer: 'New answer', reps: 1, updated_at: ctx.clock.now() });
  });

  it.each([
    [{ question: '', answer: 'A' }, 'question'],
    [{ question: 'Q', answer: '  ' }, 'answer'],
    [{ question: 'Q' }, 'answer'],
  ])('refuses %j with 422 and keeps the card', async (payload, field) => {
    const { headers, card } = await learnerWithCard(ctx.app);
    const response = await ctx.app.inject({ method: 'PUT', url: `/cards/${card._id}`, headers, payload });
    expectValidationError(response, field, messages.cardSidesEmpty);
    const row = await rowById(ctx.database.db, 'cards', card._id);
    expect(row).toMatchObject({ question: 'Question 1', answer: 'Answer 1' });
  });

  it.each(['0123456789abcdef01234567', 'zzz'])('answers 404 card_not_found for %s', async (id) => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const response = await ctx.app.inject({
      method: 'PUT',
      url: `/cards/${id}`,
      headers,
      payload: { question: 'Q', answer: 'A' },
    });
    expectError(response, 404, 'card_not_found', messages.cardNotFound);
  });
});

describe('DELETE /cards/{id}', () => {
  it('answers 204 and removes the card and its review history', async () => {
    const {
      headers,
      deck,
      cards: [card, other],
    } = await learnerWithDeck(ctx.app, 2);
    await reviewCard(ctx.app, headers, card?._id ?? '', 'fail');
    const response = await ctx.app.inject({ method: 'DELETE', url: `/cards/${card?._id}`, headers });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const db = ctx.database.db;
    expect(await db.selectFrom('cards').select('id').where('deck_id', '=', deck._id).execute()).toEqual([
      { id: other?._id },
    ]);
    expect(
      await db
        .selectFrom('review_logs')
        .select('id')
        .where('card_id', '=', card?._id ?? '')
        .execute(),
    ).toHaveLength(0);

    const again = await ctx.app.inject({ method: 'DELETE', url: `/cards/${card?._id}`, headers });
    expectError(again, 404, 'card_not_found', messages.cardNotFound);
  });
});
