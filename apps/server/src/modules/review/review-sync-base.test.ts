import { randomUUID } from 'node:crypto';
import type { HistoryResponse, SyncResponse, SyncReview } from '@flashcards/shared/api-types';
import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { expectValidationError } from '../../../test/support/api-error';
import { reviewSyncClient } from '../../../test/support/review-sync';
import { learnerWithDeck } from '../../../test/support/study';
import { useTestApp } from '../../../test/support/test-app';

const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });

const MINUTE = 60_000;

const { sync, synced } = reviewSyncClient(ctx);

const at = (minutesAgo: number) => ctx.clock.now() - minutesAgo * MINUTE;

/** An answer given `minutesAgo` minutes ago by a device that saw the card's last review at `base` minutes ago. */
function answer(cardId: string, minutesAgo: number, base: number | null, result: 'pass' | 'fail' = 'pass'): SyncReview {
  return {
    id: randomUUID(),
    card_id: cardId,
    result,
    reviewed_at: new Date(at(minutesAgo)).toISOString(),
    base: base === null ? null : new Date(at(base)).toISOString(),
  };
}

function cardRow(cardId: string) {
  return ctx.database.db.selectFrom('cards').selectAll().where('id', '=', cardId).executeTakeFirstOrThrow();
}

function logsOf(cardId: string) {
  return ctx.database.db
    .selectFrom('review_logs')
    .selectAll()
    .where('card_id', '=', cardId)
    .orderBy('reviewed_at')
    .execute();
}

/** The card's state as far as it does not depend on an answer's id (the fuzz of a long interval is drawn from it). */
async function stateOf(cardId: string) {
  const { state, reps, lapses, last_review, learning_steps, stability, difficulty, first_reviewed_at } =
    await cardRow(cardId);
  return { state, reps, lapses, last_review, learning_steps, stability, difficulty, first_reviewed_at };
}

/** The same answers on two cards of one learner: card one gets device A's sync first, card two device B's. */
async function bothOrders(
  deviceA: (cardId: string) => SyncReview[],
  deviceB: (cardId: string) => SyncReview[],
  before?: (cardId: string) => SyncReview[],
) {
  const { headers, cards } = await learnerWithDeck(ctx.app, 2);
  const [one, two] = [cards[0]?._id ?? '', cards[1]?._id ?? ''];
  if (before) {
    await synced(headers, before(one));
    await synced(headers, before(two));
  }
  const firstOne = await synced(headers, deviceA(one));
  const thenOne = await synced(headers, deviceB(one));
  const firstTwo = await synced(headers, deviceB(two));
  const thenTwo = await synced(headers, deviceA(two));
  return { headers, one, two, firstOne, thenOne, firstTwo, thenTwo };
}

const statusesOf = (response: SyncResponse) => response.results.map((result) => result.status);

describe('POST /reviews/sync with base: answers made concurrently on two devices', () => {
  it('two devices answering a new card offline end with the same card whichever syncs first: the newer answer', async () => {
    const run = await bothOrders(
      (cardId) => [answer(cardId, 20, null, 'fail')],
      (cardId) => [answer(cardId, 10, null, 'pass')],
    );
    // A then B: B is newer than A and made from the same base, so the card goes back and takes B; A yields.
    expect(statusesOf(run.firstOne)).toEqual(['applied']);
    expect(statusesOf(run.thenOne)).toEqual(['applied']);
    // B then A: A is older than B, superseded, the card not moved.
    expect(statusesOf(run.firstTwo)).toEqual(['applied']);
    expect(statusesOf(run.thenTwo)).toEqual(['superseded']);
    expect(await stateOf(run.one)).toEqual(await stateOf(run.two));
    expect(await stateOf(run.one)).toMatchObject({
      reps: 1,
      lapses: 0,
      last_review: at(10),
      first_reviewed_at: at(10),
    });
    // Each reply's card gives the last answer's time, the base of the device's next answer.
    const winner = new Date(at(10)).toISOString();
    for (const reply of [run.thenOne, run.firstTwo, run.thenTwo])
      expect(reply.results[0]?.card?.last_review).toBe(winner);
    expect(run.firstOne.results[0]?.card?.last_review).toBe(new Date(at(20)).toISOString());

    // Both answers stay in the log, the older one superseded (no snapshot: not undoable) on both cards.
    for (const cardId of [run.one, run.two]) {
      const logs = await logsOf(cardId);
      expect(logs.map((log) => [log.reviewed_at, log.rating, log.card_before === null])).toEqual([
        [at(20), 1, true],
        [at(10), 3, false],
      ]);
    }
    // Statistics count all four answers, the superseded ones included.
    const history = await ctx.app.inject({ method: 'GET', url: '/stats/history?days=1', headers: run.headers });
    expect(history.json<HistoryResponse>().days[0]).toMatchObject({ reviews: 4, passed: 2 });
  });

  it('rewinds to the common base, keeping the answers both devices saw', async () => {
    // Both devices saw the answer of 60 minutes ago; A then answered at 30, B at 20 and again at 5 (its chain).
    const common = (cardId: string) => [{ ...answer(cardId, 60, null, 'pass'), id: commonIds.get(cardId) ?? '' }];
    const commonIds = new Map<string, string>();
    const run = await bothOrders(
      (cardId) => [answer(cardId, 30, 60, 'fail')],
      (cardId) => [answer(cardId, 20, 60, 'pass'), answer(cardId, 5, 20, 'pass')],
      (cardId) => {
        commonIds.set(cardId, randomUUID());
        return common(cardId);
      },
    );
    expect(statusesOf(run.firstOne)).toEqual(['applied']);
    expect(statusesOf(run.thenOne)).toEqual(['applied', 'applied']);
    expect(statusesOf(run.firstTwo)).toEqual(['applied', 'applied']);
    expect(statusesOf(run.thenTwo)).toEqual(['superseded']);
    expect(await stateOf(run.one)).toEqual(await stateOf(run.two));
    expect(await stateOf(run.one)).toMatchObject({ reps: 3, lapses: 0, last_review: at(5), first_reviewed_at: at(60) });
    for (const cardId of [run.one, run.two]) {
      const logs = await logsOf(cardId);
      expect(logs.map((log) => [log.reviewed_at, log.card_before === null])).toEqual([
        [at(60), false],
        [at(30), true],
        [at(20), false],
        [at(5), false],
      ]);
      // Each applied answer was scheduled from the one before it in the chain that holds.
      expect(logs[2]?.due_before).toBe(logs[0]?.due_after);
      expect(logs[3]?.due_before).toBe(logs[2]?.due_after);
    }
  });

  it("a device's chain that lost at first comes back whole when its newest answer wins", async () => {
    // A answered at 15; B at 25 (lost to A's 15) then at 5 from its own 25: B's chain holds in both orders.
    const run = await bothOrders(
      (cardId) => [answer(cardId, 15, null, 'pass')],
      (cardId) => [answer(cardId, 25, null, 'fail'), answer(cardId, 5, 25, 'pass')],
    );
    expect(statusesOf(run.thenOne)).toEqual(['applied', 'applied']);
    expect(statusesOf(run.thenTwo)).toEqual(['superseded']);
    expect(await stateOf(run.one)).toEqual(await stateOf(run.two));
    expect(await stateOf(run.one)).toMatchObject({ reps: 2, lapses: 0, last_review: at(5), first_reviewed_at: at(25) });
  });

  it('an answer made after the latest review (base equal to it) applies as usual', async () => {
    const { headers, cards } = await learnerWithDeck(ctx.app, 1);
    const cardId = cards[0]?._id ?? '';
    await synced(headers, [answer(cardId, 30, null)]);
    const body = await synced(headers, [answer(cardId, 10, 30)]);
    expect(statusesOf(body)).toEqual(['applied']);
    expect(await stateOf(cardId)).toMatchObject({ reps: 2, last_review: at(10) });
    expect((await logsOf(cardId)).every((log) => log.card_before !== null)).toBe(true);
  });

  it('without base, an answer newer than the latest applies on top of it (no rewind)', async () => {
    const { headers, cards } = await learnerWithDeck(ctx.app, 1);
    const cardId = cards[0]?._id ?? '';
    await synced(headers, [answer(cardId, 30, null)]);
    const { base: _ignored, ...withoutBase } = answer(cardId, 10, null);
    expect(statusesOf(await synced(headers, [withoutBase]))).toEqual(['applied']);
    expect(await stateOf(cardId)).toMatchObject({ reps: 2, last_review: at(10), first_reviewed_at: at(30) });
  });

  it.each([
    ['a base that is not a date', 'yesterday'],
    ['a base as a number', 12],
    ['a base as an object', { at: 1 }],
  ])('%s: 422 and nothing written', async (_name, base) => {
    const { headers, cards } = await learnerWithDeck(ctx.app, 1);
    const cardId = cards[0]?._id ?? '';
    const response = await sync(headers, { reviews: [{ ...answer(cardId, 1, null), base }] });
    expectValidationError(response, 'reviews.0.base', serverMessages.syncBaseInvalid);
    expect(await logsOf(cardId)).toEqual([]);
  });
});
