import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { refusalOf } from '../../../test/support/api-error';
import { memoryRateLimiters } from '../../adapters/rate-limit/rate-limiter';
import { CardState, newCardState } from '../study-core/card-state';
import type { CardToReview, ReviewAnswersRepo, ReviewDecision, SyncedAnswer } from './review-answers.repo';
import type { SyncReviewInput } from './review-sync.schemas';
import { createReviewSyncService, SYNC_MAX_AGE_MS, SYNC_MAX_AHEAD_MS } from './review-sync.service';
import { previewNextDue, review, schedulerParametersFor } from './scheduler';

// review-sync.service.ts's own rules with a recording repo: the per-account limit counted per answer, which answers
// are refused before any card is read (future, too old, malformed card id, repeated id), the order each card's answers
// are applied in, what each applied answer logs, and how the repo's outcomes become results in the request's order.

const userId = 'u1';
const deckId = 'fedcba9876543210fedcba98';
const cardA = '0123456789abcdef0000000a';
const cardB = '0123456789abcdef0000000b';
const now = Date.parse('2026-11-22T10:00:00Z');
const DAY_MS = 86_400_000;

/** A card in long-term review, due now after 30 days, in a deck that asks 0.85 retention. */
function cardRow(id: string, examDate: string | null = null): CardToReview {
  return {
    ...newCardState(now - 40 * DAY_MS),
    state: CardState.Review,
    due: now,
    stability: 30,
    difficulty: 5,
    scheduled_days: 30,
    reps: 6,
    last_review: now - 30 * DAY_MS,
    id,
    deck_id: deckId,
    desired_retention: '0.85',
    exam_date: examDate,
    question: 'Q',
    answer: 'A',
    created_at: now - 40 * DAY_MS,
    note_id: id,
    card_type: 'basic',
    ord: 0,
  } as unknown as CardToReview;
}

/** A version-4 UUID; an answer's fuzz draws its first 13 hex digits over 16^13. */
const uuid = (prefix: string, tail: string) => `${prefix.padEnd(8, '0')}-0000-4000-8000-${tail.padStart(12, '0')}`;

/** What `uuid('8', …)` draws: its first 13 hex digits are 8000000000004. */
const drawnBy8 = 0x8000000000004 / 16 ** 13;

type Answer = { id: string; reviewedAt: number };
type Reply = { outcomes: SyncedAnswer[]; examDate?: string | null } | 'not_found' | 'raced';

function setup(replies: Record<string, Reply[]> = {}, limit = 100) {
  const calls: { cardId: string; answers: Answer[]; decisions: Omit<ReviewDecision, 'buryUntil'>[] }[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const answers = {
    async syncCard(
      _userId: string,
      cardId: string,
      given: readonly (SyncReviewInput & Answer)[],
      decide: (card: CardToReview, answer: SyncReviewInput & Answer) => Omit<ReviewDecision, 'buryUntil'>,
    ) {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      const queue = replies[cardId] ?? [{ outcomes: given.map(() => 'applied' as const) }];
      const reply = (queue.length > 1 ? queue.shift() : queue[0]) as Reply;
      const call = { cardId, answers: given.map(({ id, reviewedAt }) => ({ id, reviewedAt })), decisions: [] };
      calls.push(call as (typeof calls)[number]);
      if (typeof reply === 'string') return reply;
      let card = cardRow(cardId, reply.examDate ?? null);
      for (const answer of given) {
        const decision = decide(card, answer);
        (call.decisions as unknown[]).push(decision);
        card = { ...card, ...decision.next };
      }
      return { card, outcomes: reply.outcomes };
    },
  } as unknown as ReviewAnswersRepo;
  const service = createReviewSyncService({
    answers,
    clock: { now: () => now },
    limiter: memoryRateLimiters()({ name: `sync-test-${Math.random()}`, points: limit, windowMs: DAY_MS }),
  });
  return { service, calls, mostInFlight: () => mostInFlight };
}

const answer = (id: string, cardId: string, at: number, extra: Partial<SyncReviewInput> = {}): SyncReviewInput => ({
  id,
  card_id: cardId,
  result: 'pass',
  reviewed_at: at,
  ...extra,
});

describe('a sync', () => {
  it('refuses answers dated over a minute ahead or over 30 days back, and malformed card ids, reading no card', async () => {
    const { service, calls } = setup();
    const { results } = await service.sync(userId, [
      answer(uuid('1', '1'), cardA, now + SYNC_MAX_AHEAD_MS + 1),
      answer(uuid('2', '2'), cardA, now - SYNC_MAX_AGE_MS - 1),
      answer(uuid('3', '3'), 'not-an-id', now),
    ]);
    expect(results).toEqual([
      { id: uuid('1', '1'), status: 'rejected', code: 'review_in_future' },
      { id: uuid('2', '2'), status: 'rejected', code: 'review_too_old' },
      { id: uuid('3', '3'), status: 'rejected', code: 'card_not_found' },
    ]);
    expect(calls).toEqual([]);
  });

  it('takes answers exactly a minute ahead and exactly 30 days back', async () => {
    const { service, calls } = setup();
    const { results } = await service.sync(userId, [
      answer(uuid('1', '1'), cardA, now + SYNC_MAX_AHEAD_MS),
      answer(uuid('2', '2'), cardA, now - SYNC_MAX_AGE_MS),
    ]);
    expect(results.map((result) => result.status)).toEqual(['applied', 'applied']);
    expect(SYNC_MAX_AHEAD_MS).toBe(60_000);
    expect(SYNC_MAX_AGE_MS).toBe(30 * DAY_MS);
    expect(calls).toHaveLength(1);
  });

  it('applies each card’s answers oldest first (then by id), an id repeated in the batch once', async () => {
    const { service, calls } = setup();
    const { results } = await service.sync(userId, [
      answer(uuid('c', '3'), cardA, now - 1000),
      answer(uuid('b', '2'), cardB, now - 5000),
      answer(uuid('a', '1'), cardA, now - 3000),
      answer(uuid('c', '3'), cardA, now - 9000),
      answer(uuid('9', '4'), cardA, now - 1000),
    ]);
    expect(calls.map((call) => [call.cardId, call.answers])).toEqual([
      [
        cardA,
        [
          { id: uuid('a', '1'), reviewedAt: now - 3000 },
          { id: uuid('9', '4'), reviewedAt: now - 1000 },
          { id: uuid('c', '3'), reviewedAt: now - 1000 },
        ],
      ],
      [cardB, [{ id: uuid('b', '2'), reviewedAt: now - 5000 }]],
    ]);
    expect(results.map(({ id, status }) => [id, status])).toEqual([
      [uuid('c', '3'), 'applied'],
      [uuid('b', '2'), 'applied'],
      [uuid('a', '1'), 'applied'],
      [uuid('c', '3'), 'duplicate'],
      [uuid('9', '4'), 'applied'],
    ]);
  });

  it('breaks a tie in time by id, whichever order the ties come in', async () => {
    const ids = ['a', 'b', 'c', 'd'].map((prefix) => uuid(prefix, '1'));
    for (const given of [ids, [...ids].reverse()]) {
      const { service, calls } = setup();
      await service.sync(
        userId,
        given.map((id) => answer(id, cardA, now)),
      );
      expect(calls[0]?.answers.map((item) => item.id)).toEqual(ids);
    }
  });

  it('schedules each answer at its own time, its fuzz drawn from its id, and logs it in full', async () => {
    const { service, calls } = setup();
    const at = now - 2 * DAY_MS;
    const id = uuid('8', '1');
    await service.sync(userId, [answer(id, cardA, at, { typed: 'typed', verdict: 'close' })], null, 'UTC');
    const decision = calls[0]?.decisions[0];
    const expected = review(cardRow(cardA), 'pass', at, () => drawnBy8, schedulerParametersFor(null, 0.85));
    expect(decision?.next).toEqual(expected.next);
    expect(decision?.now).toBe(now);
    expect(decision?.log).toEqual({
      id,
      user_id: userId,
      deck_id: deckId,
      card_id: cardA,
      reviewed_at: at,
      rating: 3,
      state_before: CardState.Review,
      state_after: expected.next.state,
      due_before: now,
      due_after: expected.next.due,
      stability: expected.next.stability,
      difficulty: expected.next.difficulty,
      scheduled_days: expected.next.scheduled_days,
      elapsed_days: expected.elapsedDays,
      typed: 'typed',
      verdict: 'close',
    });
    // Each id draws its own fuzz: its first 13 hex digits over 16^13.
    for (const prefix of ['1', '4abc', 'c0ffee']) {
      const drawn = setup();
      const id = uuid(prefix, '9');
      await drawn.service.sync(userId, [answer(id, cardA, at)]);
      const value = Number.parseInt(`${prefix.padEnd(8, '0')}00004`, 16) / 16 ** 13;
      const fuzzed = review(cardRow(cardA), 'pass', at, () => value, schedulerParametersFor(null, 0.85));
      expect(drawn.calls[0]?.decisions[0]?.next).toEqual(fuzzed.next);
    }
    const other = setup();
    await other.service.sync(userId, [answer(uuid('1', '1'), cardA, at, { result: 'fail' })]);
    expect(other.calls[0]?.decisions[0]?.log).toMatchObject({ rating: 1, typed: null, verdict: null });
  });

  it('brings a due date forward to the deck’s exam, as it was at the answer’s time in the learner’s zone', async () => {
    const { service, calls } = setup({ [cardA]: [{ outcomes: ['applied'], examDate: '2026-11-23' }] });
    const { results } = await service.sync(userId, [answer(uuid('8', '1'), cardA, now)], null, 'Asia/Tokyo');
    const examStart = Date.parse('2026-11-22T19:00:00Z');
    expect(calls[0]?.decisions[0]?.next.due).toBe(examStart);
    expect(calls[0]?.decisions[0]?.log.due_after).toBe(examStart);
    expect(results[0]?.card?.next_due).toEqual({
      pass: new Date(examStart).toISOString(),
      fail: expect.any(String),
    });
    // Without a zone, the exam day starts at 04:00 UTC.
    const utc = setup({ [cardA]: [{ outcomes: ['applied'], examDate: '2026-11-23' }] });
    await utc.service.sync(userId, [answer(uuid('8', '1'), cardA, now)]);
    expect(utc.calls[0]?.decisions[0]?.next.due).toBe(Date.parse('2026-11-23T04:00:00Z'));
  });

  it('answers the card as the sync left it, with its next due dates under the learner’s weights', async () => {
    const weights = schedulerParametersFor(null, 0.9).w.map((value, index) => (index === 0 ? value + 0.1 : value));
    const { service, calls } = setup();
    const { results } = await service.sync(userId, [answer(uuid('8', '1'), cardA, now - 1000)], weights);
    const parameters = schedulerParametersFor(weights, 0.85);
    const left = { ...cardRow(cardA), ...calls[0]?.decisions[0]?.next };
    const preview = previewNextDue(left, now, parameters);
    expect(calls[0]?.decisions[0]?.next).toEqual(
      review(cardRow(cardA), 'pass', now - 1000, () => drawnBy8, parameters).next,
    );
    expect(results[0]).toEqual({
      id: uuid('8', '1'),
      status: 'applied',
      card: expect.objectContaining({
        _id: cardA,
        last_review: new Date(now - 1000).toISOString(),
        next_due: { pass: new Date(preview.pass).toISOString(), fail: new Date(preview.fail).toISOString() },
      }),
    });
  });

  it('maps the repo’s outcomes: superseded, duplicate, taken by another account, unknown card', async () => {
    const { service } = setup({
      [cardA]: [{ outcomes: ['superseded', 'duplicate', 'taken'] }],
      [cardB]: ['not_found'],
    });
    const { results } = await service.sync(userId, [
      answer(uuid('1', '1'), cardA, now - 3000),
      answer(uuid('2', '2'), cardA, now - 2000),
      answer(uuid('3', '3'), cardA, now - 1000),
      answer(uuid('4', '4'), cardB, now - 1000),
      answer(uuid('5', '5'), cardB, now - 500),
    ]);
    expect(results[0]).toMatchObject({ id: uuid('1', '1'), status: 'superseded', card: { _id: cardA } });
    expect(results.slice(1)).toEqual([
      { id: uuid('2', '2'), status: 'duplicate' },
      { id: uuid('3', '3'), status: 'rejected', code: 'review_id_taken' },
      { id: uuid('4', '4'), status: 'rejected', code: 'card_not_found' },
      { id: uuid('5', '5'), status: 'rejected', code: 'card_not_found' },
    ]);
  });

  it('takes an answer the repo gave no outcome for as a duplicate', async () => {
    const { service } = setup({ [cardA]: [{ outcomes: ['applied'] }] });
    const { results } = await service.sync(userId, [
      answer(uuid('1', '1'), cardA, now - 1000),
      answer(uuid('2', '2'), cardA, now),
    ]);
    expect(results[0]?.status).toBe('applied');
    expect(results[1]).toEqual({ id: uuid('2', '2'), status: 'duplicate' });
  });

  it('reads a card again after a race, up to ten times, then rejects its answers with review_conflict', async () => {
    const once = setup({ [cardA]: ['raced', { outcomes: ['applied'] }] });
    expect((await once.service.sync(userId, [answer(uuid('1', '1'), cardA, now)])).results[0]?.status).toBe('applied');
    expect(once.calls).toHaveLength(2);
    const always = setup({ [cardA]: ['raced'] });
    const { results } = await always.service.sync(userId, [
      answer(uuid('1', '1'), cardA, now - 1),
      answer(uuid('2', '2'), cardA, now),
    ]);
    expect(results).toEqual([
      { id: uuid('1', '1'), status: 'rejected', code: 'review_conflict' },
      { id: uuid('2', '2'), status: 'rejected', code: 'review_conflict' },
    ]);
    expect(always.calls).toHaveLength(10);
  });

  it('syncs at most eight cards at a time, and every card of the batch', async () => {
    const { service, calls, mostInFlight } = setup();
    const cards = Array.from({ length: 12 }, (_, index) => `0123456789abcdef000000${String(index).padStart(2, '0')}`);
    const { results } = await service.sync(
      userId,
      cards.map((card, index) => answer(uuid(String(index + 1), String(index)), card, now)),
    );
    expect(results.every((result) => result.status === 'applied')).toBe(true);
    expect(calls).toHaveLength(12);
    expect(mostInFlight()).toBe(8);
  });

  it('counts each answer of a batch against the account’s daily answers, and answers 429 past them', async () => {
    const { service, calls } = setup({}, 3);
    await service.sync(userId, [answer(uuid('1', '1'), cardA, now), answer(uuid('2', '2'), cardA, now)]);
    const limited = await refusalOf(
      service.sync(userId, [answer(uuid('3', '3'), cardA, now), answer(uuid('4', '4'), cardA, now)]),
    );
    expect({ code: limited.code, detail: limited.detail }).toEqual({
      code: 'rate_limited',
      detail: serverMessages.rateLimited,
    });
    expect(calls).toHaveLength(1);
    // Another account has its own count.
    expect((await service.sync('u2', [answer(uuid('5', '5'), cardA, now)])).results[0]?.status).toBe('applied');
  });
});
