import { randomUUID } from 'node:crypto';
import type { HistoryResponse, SchedulingInfo, SyncResponse, SyncReview } from '@flashcards/shared/api-types';
import { serverMessages } from '@flashcards/shared/server-messages';
import { DAY_MS } from '@flashcards/shared/time';
import { describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../../../test/support/api-error';
import { reviewSyncClient } from '../../../test/support/review-sync';
import { learnerWithDeck } from '../../../test/support/study';
import { useTestApp } from '../../../test/support/test-app';

const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });

const MINUTE = 60_000;

const { sync, synced } = reviewSyncClient(ctx);

/** An answer `minutesAgo` minutes before the test clock's now. */
function answer(cardId: string, minutesAgo: number, result: 'pass' | 'fail' = 'pass'): SyncReview {
  return {
    id: randomUUID(),
    card_id: cardId,
    result,
    reviewed_at: new Date(ctx.clock.now() - minutesAgo * MINUTE).toISOString(),
  };
}

function logsOf(userId: string) {
  return ctx.database.db
    .selectFrom('review_logs')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('reviewed_at')
    .orderBy('id')
    .execute();
}

function cardRow(cardId: string) {
  return ctx.database.db.selectFrom('cards').selectAll().where('id', '=', cardId).executeTakeFirstOrThrow();
}

function statuses(response: SyncResponse) {
  return response.results.map((result) => [result.id, result.status, result.code]);
}

describe('POST /reviews/sync', () => {
  it("applies each card's answers in reviewed_at order, whatever the request's order, results in request order", async () => {
    const { headers, user, cards } = await learnerWithDeck(ctx.app, 2);
    const [a, b] = [cards[0]?._id ?? '', cards[1]?._id ?? ''];
    const reviews = [answer(a, 5), answer(b, 30, 'fail'), answer(a, 50, 'fail'), answer(a, 20)];
    const body = await synced(headers, reviews);
    expect(statuses(body)).toEqual(reviews.map((review) => [review.id, 'applied', undefined]));
    expect(body.results[0]?.card).toMatchObject({ _id: a, reps: 3, lapses: 0 });

    const logs = await logsOf(user._id);
    expect(logs.map((log) => log.id)).toEqual([reviews[2], reviews[1], reviews[3], reviews[0]].map((r) => r?.id));
    expect(logs.map((log) => log.reviewed_at)).toEqual(
      [50, 30, 20, 5].map((minutes) => ctx.clock.now() - minutes * MINUTE),
    );
    // Card a's three answers, oldest first, each from the state the one before left.
    const ofA = logs.filter((log) => log.card_id === a);
    expect(ofA.map((log) => log.rating)).toEqual([1, 3, 3]);
    expect(ofA[0]?.state_before).toBe(0);
    expect(ofA[1]?.state_before).toBe(ofA[0]?.state_after);
    expect(ofA[2]?.due_before).toBe(ofA[1]?.due_after);
    const row = await cardRow(a);
    expect(row).toMatchObject({ reps: 3, last_review: ctx.clock.now() - 5 * MINUTE });
    expect(row.first_reviewed_at).toBe(ctx.clock.now() - 50 * MINUTE);
    // Scheduled at the answer's own time: the last answer's interval counts from 5 minutes ago.
    expect(row.due).toBe(ofA[2]?.due_after);
  });

  it('gives the same card state for the same answers sent in any order', async () => {
    const first = await learnerWithDeck(ctx.app, 1);
    const second = await learnerWithDeck(ctx.app, 1);
    const times = [300, 200, 60, 10];
    const results: ('pass' | 'fail')[] = ['pass', 'fail', 'pass', 'pass'];
    const ids = times.map(() => randomUUID());
    const batch = (cardId: string) =>
      times.map((minutes, index) => ({ ...answer(cardId, minutes, results[index]), id: ids[index] ?? '' }));
    await synced(first.headers, batch(first.cards[0]?._id ?? ''));
    // Another account, the same answers (other ids: ids are global) in the reverse order.
    const reversed = batch(second.cards[0]?._id ?? '')
      .map((review) => ({ ...review, id: randomUUID() }))
      .reverse();
    await synced(second.headers, reversed);
    const pick = ({ state, reps, lapses, last_review, learning_steps }: Awaited<ReturnType<typeof cardRow>>) => ({
      state,
      reps,
      lapses,
      last_review,
      learning_steps,
    });
    expect(pick(await cardRow(second.cards[0]?._id ?? ''))).toEqual(pick(await cardRow(first.cards[0]?._id ?? '')));
  });

  it('applies an id once: a second sync answers duplicate and changes nothing', async () => {
    const { headers, user, cards } = await learnerWithDeck(ctx.app, 2);
    const reviews = [answer(cards[0]?._id ?? '', 10), answer(cards[1]?._id ?? '', 9)];
    await synced(headers, reviews);
    const [logsBefore, cardBefore] = [await logsOf(user._id), await cardRow(cards[0]?._id ?? '')];
    ctx.clock.advance(MINUTE);
    const again = await synced(headers, reviews);
    expect(statuses(again)).toEqual(reviews.map((review) => [review.id, 'duplicate', undefined]));
    expect(await logsOf(user._id)).toEqual(logsBefore);
    expect(await cardRow(cards[0]?._id ?? '')).toEqual(cardBefore);
  });

  it('an id twice in one batch is applied once, the second is duplicate', async () => {
    const { headers, user, cards } = await learnerWithDeck(ctx.app, 1);
    const review = answer(cards[0]?._id ?? '', 10);
    const body = await synced(headers, [review, { ...review, id: review.id.toUpperCase() }]);
    expect(body.results.map((result) => result.status)).toEqual(['applied', 'duplicate']);
    expect(await logsOf(user._id)).toHaveLength(1);
    expect((await cardRow(cards[0]?._id ?? '')).reps).toBe(1);
  });

  it('applies a batch once when the same sync arrives several times at once', async () => {
    const { headers, user, cards } = await learnerWithDeck(ctx.app, 5);
    const reviews = cards.flatMap((card) => [answer(card._id, 40), answer(card._id, 20, 'fail'), answer(card._id, 3)]);
    const responses = await Promise.all(Array.from({ length: 4 }, () => sync(headers, { reviews })));
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200, 200]);
    for (const [index, review] of reviews.entries()) {
      const seen = responses.map((response) => response.json<SyncResponse>().results[index]);
      expect(seen.every((result) => result?.id === review.id)).toBe(true);
      expect(seen.filter((result) => result?.status === 'applied')).toHaveLength(1);
      expect(seen.filter((result) => result?.status === 'duplicate')).toHaveLength(3);
    }
    const logs = await logsOf(user._id);
    expect(logs.map((log) => log.id).sort()).toEqual(reviews.map((review) => review.id).sort());
    for (const card of cards) expect(await cardRow(card._id)).toMatchObject({ reps: 3, lapses: 0 });
  });

  it("logs an answer older than the card's latest as superseded, without moving the card; statistics count it", async () => {
    const { headers, user, cards } = await learnerWithDeck(ctx.app, 1);
    const cardId = cards[0]?._id ?? '';
    // Device one syncs first; device two answered the same card earlier, offline.
    const newer = answer(cardId, 10);
    await synced(headers, [newer]);
    const before = await cardRow(cardId);
    const older = answer(cardId, 30, 'fail');
    const body = await synced(headers, [older]);
    expect(body.results).toEqual([
      expect.objectContaining({ id: older.id, status: 'superseded', card: expect.objectContaining({ reps: 1 }) }),
    ]);
    expect(await cardRow(cardId)).toEqual(before);
    const logs = await logsOf(user._id);
    expect(logs.map((log) => [log.id, log.rating, log.undone_at])).toEqual([
      [older.id, 1, null],
      [newer.id, 3, null],
    ]);
    // Not undoable: the card's latest answer stays the applied one.
    expect(logs[0]?.card_before).toBeNull();

    const history = await ctx.app.inject({ method: 'GET', url: '/stats/history?days=1', headers });
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json<HistoryResponse>().days[0]).toMatchObject({ reviews: 2, passed: 1 });
    // Fitting reads the same log: both answers count among its reviews.
    const scheduling = await ctx.app.inject({ method: 'GET', url: '/scheduling', headers });
    expect(scheduling.json<SchedulingInfo>().reviews_since).toBe(2);
    // Synced again: duplicate, still two reviews.
    expect((await synced(headers, [older])).results[0]?.status).toBe('duplicate');
    expect(await logsOf(user._id)).toHaveLength(2);
  });

  it('rejects answers dated over a minute ahead or over 30 days back, unknown, malformed and foreign cards, and ids of other accounts', async () => {
    const { headers, user, cards } = await learnerWithDeck(ctx.app, 1);
    const other = await learnerWithDeck(ctx.app, 1);
    const cardId = cards[0]?._id ?? '';
    const foreign = answer(other.cards[0]?._id ?? '', 5);
    const theirs = answer(other.cards[0]?._id ?? '', 6);
    await synced(other.headers, [theirs]);
    const at = (ms: number) => new Date(ctx.clock.now() + ms).toISOString();
    const reviews = [
      { ...answer(cardId, 0), reviewed_at: at(MINUTE + 1) },
      { ...answer(cardId, 0), reviewed_at: at(-30 * DAY_MS - 1) },
      answer('6740a8b2c3d4e5f607182930', 5),
      answer('not-an-id', 5),
      foreign,
      { ...answer(cardId, 4), id: theirs.id },
      { ...answer(cardId, 0), reviewed_at: at(MINUTE) },
    ];
    const body = await synced(headers, reviews);
    expect(statuses(body)).toEqual([
      [reviews[0]?.id, 'rejected', 'review_in_future'],
      [reviews[1]?.id, 'rejected', 'review_too_old'],
      [reviews[2]?.id, 'rejected', 'card_not_found'],
      [reviews[3]?.id, 'rejected', 'card_not_found'],
      [foreign.id, 'rejected', 'card_not_found'],
      [theirs.id, 'rejected', 'review_id_taken'],
      [reviews[6]?.id, 'applied', undefined],
    ]);
    expect((await logsOf(user._id)).map((log) => log.id)).toEqual([reviews[6]?.id]);
    expect((await logsOf(other.user._id)).map((log) => log.id)).toEqual([theirs.id]);
    expect((await cardRow(other.cards[0]?._id ?? '')).reps).toBe(1);
  });

  it('applies a batch of 500 answers', async () => {
    const { headers, user, cards } = await learnerWithDeck(ctx.app, 100);
    const reviews = cards.flatMap((card) => [500, 400, 300, 200, 100].map((minutes) => answer(card._id, minutes)));
    const body = await synced(headers, reviews);
    expect(body.results.filter((result) => result.status === 'applied')).toHaveLength(500);
    expect(await logsOf(user._id)).toHaveLength(500);
    for (const card of cards.slice(0, 5)) expect((await cardRow(card._id)).reps).toBe(5);
  });
});

describe('POST /reviews/sync refuses a broken batch and writes nothing', () => {
  const cases: [string, (cardId: string) => unknown, string, string][] = [
    [
      '501 answers',
      (cardId) => ({ reviews: Array.from({ length: 501 }, () => answer(cardId, 1)) }),
      'reviews',
      serverMessages.syncTooManyReviews,
    ],
    [
      '10,000 answers',
      (cardId) => ({ reviews: Array.from({ length: 10_000 }, () => answer(cardId, 1)) }),
      'reviews',
      serverMessages.syncTooManyReviews,
    ],
    [
      'an id that is not a UUID',
      (cardId) => ({ reviews: [answer(cardId, 1), { ...answer(cardId, 1), id: 'review-1' }] }),
      'reviews.1.id',
      serverMessages.syncReviewIdInvalid,
    ],
    [
      'a time that is not a date',
      (cardId) => ({ reviews: [{ ...answer(cardId, 1), reviewed_at: 'yesterday' }] }),
      'reviews.0.reviewed_at',
      serverMessages.syncReviewedAtInvalid,
    ],
    [
      'a time as a number',
      (cardId) => ({ reviews: [{ ...answer(cardId, 1), reviewed_at: Date.now() }] }),
      'reviews.0.reviewed_at',
      serverMessages.syncReviewedAtInvalid,
    ],
    [
      'an impossible date',
      (cardId) => ({ reviews: [{ ...answer(cardId, 1), reviewed_at: '2026-02-30T10:00:00Z' }] }),
      'reviews.0.reviewed_at',
      serverMessages.syncReviewedAtInvalid,
    ],
    [
      'a result that is neither pass nor fail',
      (cardId) => ({ reviews: [{ ...answer(cardId, 1), result: 'good' }] }),
      'reviews.0.result',
      serverMessages.reviewResultInvalid,
    ],
    ['no reviews', () => ({}), 'reviews', serverMessages.syncReviewsMissing],
    ['reviews that are not a list', () => ({ reviews: 'all' }), 'reviews', serverMessages.syncReviewsMissing],
    [
      'a typed answer of 1,001 characters',
      (cardId) => ({ reviews: [{ ...answer(cardId, 1), typed: 'x'.repeat(1_001) }] }),
      'reviews.0.typed',
      serverMessages.syncTypedInvalid,
    ],
    [
      'an unknown verdict',
      (cardId) => ({ reviews: [{ ...answer(cardId, 1), verdict: 'maybe' }] }),
      'reviews.0.verdict',
      serverMessages.syncVerdictInvalid,
    ],
  ];

  it.each(cases)('%s: 422', async (_name, body, field, detail) => {
    const { headers, user, cards } = await learnerWithDeck(ctx.app, 1);
    expectValidationError(await sync(headers, body(cards[0]?._id ?? '')), field, detail);
    expect(await logsOf(user._id)).toEqual([]);
    expect((await cardRow(cards[0]?._id ?? '')).reps).toBe(0);
  });

  it('a NUL byte, a body that is a list, and no login: 4xx { detail, code }', async () => {
    const { headers, user, cards } = await learnerWithDeck(ctx.app, 1);
    const nul = await sync(headers, { reviews: [{ ...answer(cards[0]?._id ?? '', 1), card_id: 'a\u0000b' }] });
    expectError(nul, 422, 'validation_failed', serverMessages.nulCharacter);
    const list = await sync(headers, [answer(cards[0]?._id ?? '', 1)]);
    expect(list.statusCode).toBe(422);
    expect(list.json()).toMatchObject({ code: 'validation_failed' });
    const anonymous = await ctx.app.inject({ method: 'POST', url: '/reviews/sync', payload: { reviews: [] } });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 'not_authenticated' });
    expect(await logsOf(user._id)).toEqual([]);
  });

  it('answers an empty batch with no results', async () => {
    const { headers } = await learnerWithDeck(ctx.app, 0);
    expect(await synced(headers, [])).toEqual({ results: [] });
  });
});
