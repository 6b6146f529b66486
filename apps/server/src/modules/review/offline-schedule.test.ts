import { randomUUID } from 'node:crypto';
import type { Deck, DueCard, ReviewResult, SchedulingInfo, SyncReview } from '@flashcards/shared/api-types';
import { answerOffline, parametersWith, previewNextDue, schedulingStateOf } from '@flashcards/shared/scheduler';
import { DAY_MS, isoTime } from '@flashcards/shared/time';
import { default_w } from 'ts-fsrs';
import { describe, expect, it } from 'vitest';
import { reviewSyncClient } from '../../../test/support/review-sync';
import { learnerWithDeck, putDeckSettings } from '../../../test/support/study';
import { useTestApp } from '../../../test/support/test-app';

/**
 * The review page schedules an answer given offline on the device (packages/shared/src/scheduler.ts `answerOffline`,
 * from the card GET /cards/due sent, GET /scheduling's weights and the deck's retention); POST /reviews/sync then
 * schedules the same answers on the server. Both must leave the card in the same state, fuzz included: the sync draws
 * an answer's fuzz from its id, and so does the device.
 */

const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });
const { synced } = reviewSyncClient(ctx);
const MINUTE = 60_000;

/** What the device shows after each answer and what the server says after the sync, field by field. */
function scheduleOf(card: DueCard) {
  const { status, due_date, reps, lapses, memory, next_due, last_review } = card;
  return { status, due_date, reps, lapses, memory, next_due, last_review };
}

async function dueCards(headers: { authorization: string }): Promise<DueCard[]> {
  const response = await ctx.app.inject({ method: 'GET', url: '/cards/due', headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<DueCard[]>();
}

async function parametersOf(headers: { authorization: string }, deck: Deck) {
  const response = await ctx.app.inject({ method: 'GET', url: '/scheduling', headers });
  expect(response.statusCode, response.body).toBe(200);
  const info = response.json<SchedulingInfo>();
  return parametersWith(info.personalized ? info.parameters : null, deck.desired_retention);
}

/**
 * Answers `card` on the device at each of `answers` (minutes before now), then syncs them all at once: the card the
 * device ended with equals the one the server sends back, and each step's learning interval is the product's.
 */
async function answerOfflineThenSync(
  headers: { authorization: string },
  deck: Deck,
  answers: [minutesAgo: number, result: ReviewResult][],
) {
  const [card] = await dueCards(headers);
  if (!card) throw new Error('no card due');
  const parameters = await parametersOf(headers, deck);
  const onDeviceWith = (chosen: typeof parameters) =>
    reviews.reduce(
      (state, review) => answerOffline(state, review.result, Date.parse(review.reviewed_at), review.id, chosen),
      card,
    );
  const reviews: SyncReview[] = [];
  const shown: DueCard[] = [];
  let onDevice = card;
  for (const [minutesAgo, result] of answers) {
    const at = ctx.clock.now() - minutesAgo * MINUTE;
    const review: SyncReview = {
      id: randomUUID(),
      card_id: card._id,
      result,
      reviewed_at: new Date(at).toISOString(),
      base: onDevice.last_review,
    };
    onDevice = answerOffline(onDevice, result, at, review.id, parameters);
    shown.push(onDevice);
    reviews.push(review);
  }
  const body = await synced(headers, reviews);
  expect(body.results.map((result) => result.status)).toEqual(reviews.map(() => 'applied'));
  const [afterSync] = body.results.slice(-1).map((result) => result.card);
  if (!afterSync) throw new Error('no card in the reply');
  // The grade buttons' intervals the device would show now are the reply's (taken at the server's now).
  const last = shown.at(-1) as DueCard;
  const preview = previewNextDue(schedulingStateOf(last), ctx.clock.now(), parameters);
  expect({ pass: isoTime(preview.pass), fail: isoTime(preview.fail) }).toEqual(afterSync.next_due);
  const { next_due: _device, ...device } = scheduleOf(last);
  const { next_due: _server, ...server } = scheduleOf(afterSync);
  expect(device).toEqual(server);
  return { shown, afterSync, onDeviceWith };
}

describe('an answer scheduled on the device offline, then synced', () => {
  it('a new card failed twice, then passed through its steps and over days: every state equals the server’s', async () => {
    ctx.clock.set('2026-12-20T10:00:00.000Z');
    const { headers, deck } = await learnerWithDeck(ctx.app, 1);
    const days = (n: number) => n * 24 * 60;
    const { shown, afterSync } = await answerOfflineThenSync(headers, deck, [
      [days(20), 'fail'],
      [days(20) - 1, 'fail'],
      [days(20) - 2, 'pass'],
      [days(20) - 12, 'pass'],
      [days(17), 'pass'],
      [days(10), 'pass'],
      [days(2), 'fail'],
      [days(2) - 10, 'pass'],
    ]);
    const start = ctx.clock.now() - days(20) * MINUTE;
    // The learning steps as online: a fail brings a new card back in 1 minute, a pass on the first step in 10.
    expect(shown.map((card) => card.status)).toEqual([
      'learning',
      'learning',
      'learning',
      'due',
      'due',
      'due',
      'relearning',
      'due',
    ]);
    expect(shown[0]?.due_date).toBe(new Date(start + MINUTE).toISOString());
    expect(shown[2]?.due_date).toBe(new Date(start + 2 * MINUTE + 10 * MINUTE).toISOString());
    expect(shown[6]?.due_date).toBe(new Date(ctx.clock.now() - days(2) * MINUTE + 10 * MINUTE).toISOString());
    // The pass 10 days ago scheduled more than 2.5 days ahead: a fuzzed interval, and the device drew the sync's fuzz.
    expect(Date.parse(shown[5]?.due_date ?? '') - Date.parse(shown[5]?.last_review ?? '')).toBeGreaterThan(
      2.5 * DAY_MS,
    );
    const last = shown.at(-1) as DueCard;
    const row = await ctx.database.db
      .selectFrom('cards')
      .select(['due', 'stability', 'difficulty', 'state'])
      .where('id', '=', afterSync._id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      due: Date.parse(last.due_date),
      stability: last.memory.stability,
      difficulty: last.memory.difficulty,
      state: 2,
    });
  });

  it('with the learner’s own weights and the deck’s retention, read as the review page reads them', async () => {
    ctx.clock.set('2026-12-20T10:00:00.000Z');
    const { headers, deck, user } = await learnerWithDeck(ctx.app, 1);
    const settings = await putDeckSettings(ctx.app, headers, deck._id, { desired_retention: 0.8 });
    expect(settings.statusCode, settings.body).toBe(200);
    const weights = default_w.map((value, index) => (index === 2 ? value * 1.5 : value));
    await ctx.database.db
      .updateTable('users')
      .set({ fsrs_parameters: JSON.stringify(weights), fsrs_optimized_at: ctx.clock.now() - 30 * DAY_MS })
      .where('id', '=', user._id)
      .execute();
    const { afterSync, onDeviceWith } = await answerOfflineThenSync(headers, { ...deck, desired_retention: 0.8 }, [
      [9 * 24 * 60, 'pass'],
      [9 * 24 * 60 - 10, 'pass'],
      [3 * 24 * 60, 'pass'],
      [30, 'fail'],
    ]);
    // With the product's defaults the device would have scheduled otherwise: the parameters it read matter.
    const withDefaults = onDeviceWith(parametersWith(null, 0.9));
    expect(withDefaults.memory.stability).not.toBe(afterSync.memory.stability);
  });
});
