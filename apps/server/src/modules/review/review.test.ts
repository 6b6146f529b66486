import { randomUUID } from 'node:crypto';
import type { Card as ApiCard } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { type Card, createEmptyCard, fsrs, Rating, StrategyMode } from 'ts-fsrs';
import { describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../../../test/support/api-error';
import { signUpAndLogIn } from '../../../test/support/factories';
import { rowById } from '../../../test/support/rows';
import {
  createDeck,
  DAY,
  dueCards,
  fixedRandom,
  learnerWithCard,
  learnerWithDeck,
  MINUTE,
  reviewCard,
  saveCards,
} from '../../../test/support/study';
import { createTestApp, useTestApp } from '../../../test/support/test-app';
import { fuzzSeed } from './scheduler';

const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000' }, random: fixedRandom() });

const statsKeys = [
  'cards_reviewed_today',
  'due_cards',
  'learning_cards',
  'new_cards',
  'next_due_time',
  'total_cards',
].sort();

describe('POST /cards/review through days, with an injected clock', () => {
  it('walks new → learning (1 m) → learning (10 m) → due (days) → relearning (10 m) → due, as ts-fsrs does', async () => {
    // Its own app, so that the fuzz randomness it draws is exactly the sequence this test replays into ts-fsrs.
    const walkCtx = await createTestApp({ shareWith: ctx, random: fixedRandom([0.3, 0.8, 0.15, 0.6]) });
    try {
      const app = walkCtx.app;
      const clock = ctx.clock;
      clock.set('2026-12-01T08:00:00.000Z');
      const {
        headers,
        user,
        deck,
        cards: [saved],
      } = await learnerWithDeck(app, 1);
      const cardId = saved?._id ?? '';

      const replay = fixedRandom([0.3, 0.8, 0.15, 0.6]);
      let expected: Card = createEmptyCard(new Date(clock.now()));
      const fsrsNext = (rating: Rating.Again | Rating.Good) => {
        const seed = fuzzSeed(replay);
        const scheduler = fsrs({
          request_retention: 0.9,
          maximum_interval: 36_500,
          enable_fuzz: true,
          learning_steps: ['1m', '10m'],
          relearning_steps: ['10m'],
        }).useStrategy(StrategyMode.SEED, () => seed);
        expected = scheduler.next(expected, new Date(clock.now()), rating).card;
        return expected;
      };

      const steps: { result: 'pass' | 'fail'; status: ApiCard['status']; wait?: number }[] = [
        { result: 'fail', status: 'learning', wait: MINUTE },
        { result: 'pass', status: 'learning', wait: 10 * MINUTE },
        { result: 'pass', status: 'due' },
        { result: 'fail', status: 'relearning', wait: 10 * MINUTE },
        { result: 'pass', status: 'due' },
        { result: 'pass', status: 'due' },
        { result: 'pass', status: 'due' },
      ];
      // POST /cards/review answers the card without `images` (the queue and saves carry them).
      const { images: _images, ...savedCard } = saved as ApiCard;
      let before: ApiCard = savedCard;
      for (const [index, step] of steps.entries()) {
        // The card is in the queue exactly when it is due.
        if (index > 0) {
          clock.set(new Date(Date.parse(before.due_date) - 1000).toISOString());
          expect((await dueCards(app, headers)).map((card) => card._id)).not.toContain(cardId);
          clock.set(before.due_date);
        }
        expect((await dueCards(app, headers)).map((card) => card._id)).toEqual([cardId]);

        const now = clock.now();
        const reference = fsrsNext(step.result === 'pass' ? Rating.Good : Rating.Again);
        const card = await reviewCard(app, headers, cardId, step.result);
        expect(card).toEqual({
          ...before,
          status: step.status,
          due_date: reference.due.toISOString(),
          reps: index + 1,
          lapses: reference.lapses,
        });
        const wait = Date.parse(card.due_date) - now;
        if (step.wait !== undefined) expect(wait).toBe(step.wait);
        else {
          expect(wait).toBeGreaterThanOrEqual(DAY);
          expect(wait % DAY).toBe(0);
        }

        const row = await rowById(ctx.database.db, 'cards', cardId);
        expect(row).toMatchObject({
          state: reference.state,
          due: reference.due.getTime(),
          stability: reference.stability,
          difficulty: reference.difficulty,
          scheduled_days: reference.scheduled_days,
          learning_steps: reference.learning_steps,
          reps: reference.reps,
          lapses: reference.lapses,
          last_review: now,
          first_reviewed_at: Date.parse('2026-12-01T08:00:00.000Z'),
        });
        before = card;
      }
      expect(before.lapses).toBe(1);

      // The review log: one row per review, in order, never rewritten.
      const logs = await ctx.database.db
        .selectFrom('review_logs')
        .selectAll()
        .where('card_id', '=', cardId)
        .orderBy('reviewed_at')
        .execute();
      expect(logs).toHaveLength(steps.length);
      expect(logs.map((log) => log.rating)).toEqual([1, 3, 3, 1, 3, 3, 3]);
      expect(logs.map((log) => log.state_before)).toEqual([0, 1, 1, 2, 3, 2, 2]);
      expect(logs.map((log) => log.state_after)).toEqual([1, 1, 2, 3, 2, 2, 2]);
      for (const [index, log] of logs.entries()) {
        expect(log).toMatchObject({ user_id: user._id, deck_id: deck._id });
        if (index > 0) {
          const previous = logs[index - 1];
          expect(log.due_before).toBe(previous?.due_after);
          expect(log.elapsed_days).toBeCloseTo(((log.reviewed_at - (previous?.reviewed_at ?? 0)) / DAY) as number, 10);
          // A review happens when the card is due.
          expect(log.reviewed_at).toBe(log.due_before);
        } else expect(log.elapsed_days).toBe(0);
      }
      const last = logs.at(-1);
      const row = await rowById(ctx.database.db, 'cards', cardId);
      expect(last).toMatchObject({
        due_after: row.due,
        stability: row.stability,
        difficulty: row.difficulty,
        scheduled_days: row.scheduled_days,
      });
    } finally {
      await walkCtx.close();
    }
  });
});

describe('POST /cards/review', () => {
  describe('with review_id, the answer sent again after a lost reply', () => {
    const answer = (headers: { authorization: string }, cardId: string, reviewId: string, result = 'pass') =>
      ctx.app.inject({
        method: 'POST',
        url: '/cards/review',
        headers,
        payload: { card_id: cardId, result, review_id: reviewId },
      });
    const logsOf = (cardId: string) =>
      ctx.database.db.selectFrom('review_logs').select(['id', 'rating']).where('card_id', '=', cardId).execute();

    it('is recorded once: the second request answers the card as the first left it', async () => {
      const { headers, card } = await learnerWithCard(ctx.app);
      const reviewId = randomUUID();
      const first = await answer(headers, card._id, reviewId);
      expect(first.statusCode, first.body).toBe(200);
      const again = await answer(headers, card._id, reviewId.toUpperCase(), 'fail');
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json()).toEqual(first.json());
      expect(await logsOf(card._id)).toEqual([{ id: reviewId, rating: 3 }]);
      expect((await rowById(ctx.database.db, 'cards', card._id)).reps).toBe(1);
    });

    it('is a duplicate for POST /reviews/sync, which the device sends it through when the network dropped', async () => {
      const { headers, card } = await learnerWithCard(ctx.app);
      const reviewId = randomUUID();
      expect((await answer(headers, card._id, reviewId)).statusCode).toBe(200);
      const sync = await ctx.app.inject({
        method: 'POST',
        url: '/reviews/sync',
        headers,
        payload: {
          reviews: [
            { id: reviewId, card_id: card._id, result: 'pass', reviewed_at: new Date(ctx.clock.now()).toISOString() },
          ],
        },
      });
      expect(sync.json()).toEqual({ results: [{ id: reviewId, status: 'duplicate' }] });
      expect(await logsOf(card._id)).toHaveLength(1);
    });

    it("answers 409 review_id_taken for another learner's answer id, and writes nothing", async () => {
      const one = await learnerWithCard(ctx.app);
      const two = await learnerWithCard(ctx.app);
      const reviewId = randomUUID();
      expect((await answer(one.headers, one.card._id, reviewId)).statusCode).toBe(200);
      expectError(await answer(two.headers, two.card._id, reviewId), 409, 'review_id_taken', messages.reviewIdTaken);
      expect(await logsOf(two.card._id)).toEqual([]);
      expect((await rowById(ctx.database.db, 'cards', two.card._id)).reps).toBe(0);
    });

    it('answers 422 for an id that is not a UUID', async () => {
      const { headers, card } = await learnerWithCard(ctx.app);
      expectValidationError(await answer(headers, card._id, 'not-a-uuid'), 'review_id', serverMessages.reviewIdInvalid);
      expect(await logsOf(card._id)).toEqual([]);
    });
  });

  it.each([
    ['_id', '_id'],
    ['id', 'id'],
  ])('accepts the card id as %s', async (_label, key) => {
    const { headers, card } = await learnerWithCard(ctx.app);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/cards/review',
      headers,
      payload: { [key]: card._id, result: 'pass' },
    });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json())).toEqual(['card']);
    expect(response.json().card).toMatchObject({ _id: card._id, status: 'learning', reps: 1 });
  });

  it.each([
    [{ result: 'pass' }, messages.cardIdMissing, 'card_id'],
    [{ card_id: '', result: 'pass' }, messages.cardIdMissing, 'card_id'],
    [{ card_id: '0123456789abcdef01234567' }, serverMessages.reviewResultInvalid, 'result'],
    [{ card_id: '0123456789abcdef01234567', result: 'good' }, serverMessages.reviewResultInvalid, 'result'],
  ])('refuses %j with 422', async (payload, detail, field) => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const response = await ctx.app.inject({ method: 'POST', url: '/cards/review', headers, payload });
    expectValidationError(response, field, detail);
  });

  it.each(['0123456789abcdef01234567', 'not-a-card'])('answers 404 card_not_found for %s', async (cardId) => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/cards/review',
      headers,
      payload: { card_id: cardId, result: 'fail' },
    });
    expectError(response, 404, 'card_not_found', messages.cardNotFound);
  });

  it('needs a login', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/cards/review',
      payload: { card_id: '0123456789abcdef01234567', result: 'pass' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('not_authenticated');
  });
});

describe('GET /cards/due', () => {
  it('orders learning and relearning cards due, then long-term cards due, then new cards', async () => {
    ctx.clock.set('2026-12-10T09:00:00.000Z');
    const { headers, deck } = await learnerWithDeck(ctx.app);
    const [a, b, c, d, e, f] = (await saveCards(ctx.app, headers, deck._id, 6)).map((card) => card._id);
    const ids = [a, b, c, d, e, f] as string[];
    // a: pass → learning 10 m; b: fail → learning 1 m; c: fail, pass, pass → long-term; d, e, f stay new.
    await reviewCard(ctx.app, headers, ids[0] ?? '', 'pass');
    await reviewCard(ctx.app, headers, ids[1] ?? '', 'fail');
    await reviewCard(ctx.app, headers, ids[2] ?? '', 'pass');
    ctx.clock.advance(10 * MINUTE);
    await reviewCard(ctx.app, headers, ids[2] ?? '', 'pass');

    // Now (10 minutes on): a and b are due learning cards; c is long-term, due in days; d, e, f are new.
    const now = await dueCards(ctx.app, headers);
    expect(now.map((card) => card._id)).toEqual([ids[1], ids[0], ids[3], ids[4], ids[5]]);
    expect(now.map((card) => card.status)).toEqual(['learning', 'learning', 'new', 'new', 'new']);

    // Days later: the long-term card comes after the learning ones and before the new ones.
    ctx.clock.advance(5 * DAY);
    const later = await dueCards(ctx.app, headers);
    expect(later.map((card) => card._id)).toEqual([ids[1], ids[0], ids[2], ids[3], ids[4], ids[5]]);
    expect(later.map((card) => card.status)).toEqual(['learning', 'learning', 'due', 'new', 'new', 'new']);
  });

  it('keeps to one deck with deck_id, and answers 404 for a deck that is not the caller’s', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const one = await createDeck(ctx.app, headers, 'One');
    const two = await createDeck(ctx.app, headers, 'Two');
    const oneCards = await saveCards(ctx.app, headers, one._id, 2);
    const twoCards = await saveCards(ctx.app, headers, two._id, 2);
    expect(await dueCards(ctx.app, headers, one._id)).toEqual(oneCards);
    expect(await dueCards(ctx.app, headers, two._id)).toEqual(twoCards);
    expect((await dueCards(ctx.app, headers)).map((card) => card._id).sort()).toEqual(
      [...oneCards, ...twoCards].map((card) => card._id).sort(),
    );
    for (const deckId of ['0123456789abcdef01234567', 'bad']) {
      const response = await ctx.app.inject({ method: 'GET', url: `/cards/due?deck_id=${deckId}`, headers });
      expectError(response, 404, 'deck_not_found', serverMessages.deckNotFound);
    }
  });

  it('answers an empty list when nothing is due', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    expect(await dueCards(ctx.app, headers)).toEqual([]);
  });
});

describe('GET /decks/stats and GET /decks/{id}/stats', () => {
  it('counts new, learning, due and reviewed-today cards, and gives the next due time', async () => {
    ctx.clock.set('2026-12-20T10:00:00.000Z');
    const { headers } = await signUpAndLogIn(ctx.app);
    const one = await createDeck(ctx.app, headers, 'One');
    const two = await createDeck(ctx.app, headers, 'Two');
    const cards = (await saveCards(ctx.app, headers, one._id, 5)).map((card) => card._id);
    await saveCards(ctx.app, headers, two._id, 3);

    const empty = await ctx.app.inject({ method: 'GET', url: '/decks/stats', headers });
    expect(empty.statusCode).toBe(200);
    expect(Object.keys(empty.json()).sort()).toEqual(statsKeys);
    expect(empty.json()).toEqual({
      total_cards: 8,
      new_cards: 8,
      learning_cards: 0,
      due_cards: 0,
      cards_reviewed_today: 0,
      next_due_time: null,
    });

    // Card 0: pass (learning, due in 10 m). Card 1: fail (learning, due in 1 m). Card 2: to long-term review.
    await reviewCard(ctx.app, headers, cards[0] ?? '', 'pass');
    await reviewCard(ctx.app, headers, cards[1] ?? '', 'fail');
    await reviewCard(ctx.app, headers, cards[2] ?? '', 'pass');
    ctx.clock.advance(10 * MINUTE);
    const longTerm = await reviewCard(ctx.app, headers, cards[2] ?? '', 'pass');
    expect(longTerm.status).toBe('due');

    const get = async (url: string) => {
      const response = await ctx.app.inject({ method: 'GET', url, headers });
      expect(response.statusCode).toBe(200);
      return response.json();
    };
    // 10 minutes on: cards 0 and 1 are due learning cards (not future), card 2 is due in days.
    expect(await get(`/decks/${one._id}/stats`)).toEqual({
      total_cards: 5,
      new_cards: 2,
      learning_cards: 2,
      due_cards: 0,
      cards_reviewed_today: 3,
      next_due_time: longTerm.due_date,
    });
    expect(await get('/decks/stats')).toEqual({
      total_cards: 8,
      new_cards: 5,
      learning_cards: 2,
      due_cards: 0,
      cards_reviewed_today: 3,
      next_due_time: longTerm.due_date,
    });
    expect(await get(`/decks/${two._id}/stats`)).toEqual({
      total_cards: 3,
      new_cards: 3,
      learning_cards: 0,
      due_cards: 0,
      cards_reviewed_today: 0,
      next_due_time: null,
    });

    // A fail puts card 1 back one minute: that is now the earliest future due time.
    const relearn = await reviewCard(ctx.app, headers, cards[1] ?? '', 'fail');
    expect((await get('/decks/stats')).next_due_time).toBe(relearn.due_date);

    // The next UTC day (and the long-term card due by then): reviewed-today starts again; the due card counts.
    ctx.clock.set(longTerm.due_date);
    ctx.clock.advance(1);
    expect(await get(`/decks/${one._id}/stats`)).toMatchObject({
      learning_cards: 2,
      due_cards: 1,
      cards_reviewed_today: 0,
      next_due_time: null,
    });
  });

  it.each(['0123456789abcdef01234567', 'nope'])('answers 404 deck_not_found for deck %s', async (id) => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const response = await ctx.app.inject({ method: 'GET', url: `/decks/${id}/stats`, headers });
    expectError(response, 404, 'deck_not_found', serverMessages.deckNotFound);
  });

  it('needs a login', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/decks/stats' });
    expect(response.statusCode).toBe(401);
  });
});
