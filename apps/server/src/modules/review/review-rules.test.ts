import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { refusalOf } from '../../../test/support/api-error';
import { memoryRateLimiters } from '../../adapters/rate-limit/rate-limiter';
import { CardState, newCardState } from '../study-core/card-state';
import type { QueueRow } from '../study-core/due-queue';
import type { DeckStatsRepo } from './deck-stats.repo';
import type { DueQueueRepo } from './due-queue.repo';
import { createReviewService } from './review.service';
import type { ReviewAnswersRepo } from './review-answers.repo';
import { parseWeights, previewNextDue, schedulerParameters, schedulerParametersFor } from './scheduler';

// review.service.ts's own rules with a recording repo: the per-account answer limit (keyed by the account, counted
// before anything else, refused ones too), what a review writes, the errors each outcome maps to, and the stats shape.

const userId = 'u1';
const cardId = '0123456789abcdef01234567';
const deckId = 'fedcba9876543210fedcba98';
const now = Date.parse('2026-11-22T10:00:00Z');
const DAY_MS = 86_400_000;

const before = {
  ...newCardState(now - DAY_MS),
  id: cardId,
  deck_id: deckId,
  desired_retention: '0.9',
  question: 'Q',
  answer: 'A',
  created_at: now - DAY_MS,
  note_id: cardId,
  card_type: 'basic' as const,
  ord: 0,
};

type Outcome = 'not_found' | 'raced' | 'write' | 'taken' | 'logged' | 'undecided';

function setup(outcomes: Outcome[] = ['write'], limit = 3, queueReads = {} as DueQueueRepo) {
  const decisions: unknown[] = [];
  let calls = 0;
  const answers = {
    async reviewCard(_userId: string, _cardId: string, decide: (card: typeof before) => unknown) {
      const outcome = outcomes[Math.min(calls, outcomes.length - 1)];
      calls++;
      if (outcome === 'not_found' || outcome === 'taken') return outcome;
      // The answer's id is in the log already: the card as it is, nothing decided.
      if (outcome === 'logged') return { logged: { ...before, last_review: now - DAY_MS, exam_date: null } };
      if (outcome === 'undecided') return before;
      const decision = decide(before) as { next: typeof before };
      decisions.push(decision);
      if (outcome === 'raced') return 'raced';
      return { ...before, ...decision.next };
    },
    async undoLatestReview(...args: unknown[]) {
      decisions.push(['undo', ...args]);
      return undoOutcome;
    },
  } as unknown as ReviewAnswersRepo;
  let undoOutcome: unknown = 'card_not_found';
  const deckStats = {
    stats: async (...args: unknown[]) => {
      decisions.push(['stats', ...args]);
      return statsAnswer;
    },
  } as unknown as DeckStatsRepo;
  let statsAnswer: unknown = {
    total: 9,
    fresh: 4,
    learning: 2,
    due: 3,
    reviewedToday: 5,
    nextDue: now + 60_000,
  };
  let ids = 0;
  const service = createReviewService({
    queueReads,
    answers,
    deckStats,
    decks: { exists: async () => true },
    clock: { now: () => now },
    newId: () => `log-${++ids}`,
    random: () => 0.5,
    maxQueue: 200,
    limiter: memoryRateLimiters()({ name: `review-test-${Math.random()}`, points: limit, windowMs: DAY_MS }),
  });
  return {
    service,
    decisions,
    calls: () => calls,
    setUndo: (outcome: unknown) => {
      undoOutcome = outcome;
    },
    setStats: (answer: unknown) => {
      statsAnswer = answer;
    },
  };
}

describe('a review', () => {
  it('writes the next state and a review-log row, holds siblings until the next 04:00, and answers the card', async () => {
    const { service, decisions } = setup();
    const answer = await service.review(userId, cardId, 'pass', null, 'UTC', { typed: 'typed', verdict: 'correct' });
    const decision = decisions[0] as { log: Record<string, unknown>; now: number; buryUntil: number };
    expect(decision.now).toBe(now);
    expect(decision.buryUntil).toBe(Date.parse('2026-11-23T04:00:00Z'));
    expect(decision.log).toMatchObject({
      id: 'log-1',
      user_id: userId,
      deck_id: deckId,
      card_id: cardId,
      reviewed_at: now,
      rating: 3,
      state_before: CardState.New,
      due_before: now - DAY_MS,
      typed: 'typed',
      verdict: 'correct',
    });
    expect(decision.log.state_after).not.toBe(CardState.New);
    expect(answer.card).toMatchObject({ _id: cardId, deck_id: deckId, status: 'learning' });
    expect(Date.parse(answer.card.next_due.fail)).toBeGreaterThan(now);
    expect(Date.parse(answer.card.next_due.pass)).toBeGreaterThan(Date.parse(answer.card.next_due.fail));
  });

  it('logs a fail as rating 1 and no typed answer by default', async () => {
    const { service, decisions } = setup();
    await service.review(userId, cardId, 'fail');
    expect((decisions[0] as { log: Record<string, unknown> }).log).toMatchObject({
      rating: 1,
      typed: null,
      verdict: null,
    });
  });

  it('holds siblings until 04:00 in the learner’s zone', async () => {
    const { service, decisions } = setup();
    await service.review(userId, cardId, 'pass', null, 'Asia/Tokyo');
    expect((decisions[0] as { buryUntil: number }).buryUntil).toBe(Date.parse('2026-11-22T19:00:00Z'));
  });

  it('counts every answer of the account, refused ones too, and then answers 429 with the wait', async () => {
    const { service } = setup(['not_found'], 2);
    expect(await refusalOf(service.review(userId, cardId, 'pass'))).toEqual({
      code: 'card_not_found',
      detail: messages.cardNotFound,
    });
    await refusalOf(service.review(userId, cardId, 'pass'));
    const limited = await refusalOf(service.review(userId, cardId, 'pass'));
    expect({ code: limited.code, detail: limited.detail }).toEqual({
      code: 'rate_limited',
      detail: serverMessages.rateLimited,
    });
    // The wait is the rest of the 24-hour window (the limiter's clock is real, so a little of it has passed).
    expect(limited.retryAfterSeconds).toBeLessThanOrEqual(86_400);
    expect(limited.retryAfterSeconds).toBeGreaterThan(86_400 - 600);
    // Another account has its own count.
    expect((await refusalOf(service.review('u2', cardId, 'pass'))).code).toBe('card_not_found');
  });

  it('refuses a malformed card id before counting it', async () => {
    const { service, calls } = setup(['write'], 1);
    expect(await refusalOf(service.review(userId, 'nope', 'pass'))).toEqual({
      code: 'card_not_found',
      detail: messages.cardNotFound,
    });
    expect(calls()).toBe(0);
    await service.review(userId, cardId, 'pass');
  });

  it('reads the card again after a race, up to ten times, then answers 409 review_conflict', async () => {
    const racedOnce = setup(['raced', 'write']);
    await racedOnce.service.review(userId, cardId, 'pass');
    expect(racedOnce.calls()).toBe(2);
    const always = setup(['raced']);
    expect(await refusalOf(always.service.review(userId, cardId, 'pass'))).toEqual({
      code: 'review_conflict',
      detail: messages.reviewConflict,
    });
    expect(always.calls()).toBe(10);
  });
});

describe('what a review answers', () => {
  it('takes the learner’s zone as UTC by default', async () => {
    const { service, decisions } = setup();
    await service.review(userId, cardId, 'pass');
    expect((decisions[0] as { buryUntil: number }).buryUntil).toBe(Date.parse('2026-11-23T04:00:00Z'));
  });

  it('answers 409 review_id_taken when another account used the answer’s id', async () => {
    const { service, decisions } = setup(['taken']);
    expect(await refusalOf(service.review(userId, cardId, 'pass', null, 'UTC', undefined, 'id-1'))).toEqual({
      code: 'review_id_taken',
      detail: messages.reviewIdTaken,
    });
    expect(decisions).toEqual([]);
  });

  it('answers an answer already logged with the card as it stands, applying nothing again', async () => {
    const { service, decisions } = setup(['logged']);
    const answer = await service.review(userId, cardId, 'pass', null, 'UTC', undefined, 'id-1');
    const preview = previewNextDue({ ...before, last_review: now - DAY_MS }, now, schedulerParameters);
    expect(answer.card).toMatchObject({
      _id: cardId,
      status: 'new',
      last_review: new Date(now - DAY_MS).toISOString(),
      next_due: { pass: new Date(preview.pass).toISOString(), fail: new Date(preview.fail).toISOString() },
    });
    expect(decisions).toEqual([]);
  });

  it('fails loudly when the repo wrote a card without asking for a decision', async () => {
    const { service } = setup(['undecided']);
    await expect(service.review(userId, cardId, 'pass')).rejects.toThrow('reviewCard wrote a card without a decision');
  });
});

describe('the queue', () => {
  const otherDeck = 'aaaaaaaaaaaaaaaaaaaaaaaa';
  const examDeck = 'bbbbbbbbbbbbbbbbbbbbbbbb';
  /** A card in long-term review, last answered 30 days ago: its previews depend on its deck's retention. */
  const row = (id: string, deck: string): QueueRow => ({
    ...newCardState(now - 40 * DAY_MS),
    state: CardState.Review,
    due: now,
    stability: 30,
    difficulty: 5,
    scheduled_days: 30,
    last_review: now - 30 * DAY_MS,
    id,
    deck_id: deck,
    question: 'Q',
    answer: 'A',
    created_at: now - 40 * DAY_MS,
    reps: 6,
    lapses: 0,
    note_id: id,
    card_type: 'basic',
    ord: 0,
    occlusion: null,
    source: null,
  });
  const first = row('0123456789abcdef00000001', deckId);
  const second = row('0123456789abcdef00000002', otherDeck);
  const third = row('0123456789abcdef00000003', examDeck);

  function queueSetup() {
    const calls: unknown[] = [];
    const reads = {
      async dueCards() {
        return { learning: [], review: [first, second, third] };
      },
      async newCardAllowance(...args: unknown[]) {
        calls.push(['allowance', ...args]);
        return [];
      },
      async newCards() {
        return [];
      },
      async deckRetentions(...args: unknown[]) {
        calls.push(['retentions', ...args]);
        // The first deck asks 0.8; the exam deck has an exam tomorrow; the other one is not in the answer (defaults).
        return new Map([
          [deckId, { retention: 0.8, examDate: null }],
          [examDeck, { retention: 0.9, examDate: '2026-11-23' }],
        ]);
      },
      async imagesOf(...args: unknown[]) {
        calls.push(['images', ...args]);
        return new Map([[first.id, [{ name: 'a.png', url: '/a.png' }]]]);
      },
    } as unknown as DueQueueRepo;
    return { service: setup(['write'], 3, reads).service, calls };
  }

  it('previews each card with its deck’s retention (the default where none), capped at the deck’s exam', async () => {
    const { service, calls } = queueSetup();
    const queue = await service.queue(userId, undefined);
    expect(queue.map((card) => card._id)).toEqual([first.id, second.id, third.id]);
    expect(calls).toEqual([
      ['allowance', { userId, deckId: null }, Date.parse('2026-11-22T04:00:00Z')],
      ['retentions', userId, [deckId, otherDeck, examDeck]],
      ['images', userId, [first.id, second.id, third.id]],
    ]);
    const iso = (time: number) => new Date(time).toISOString();
    const own = previewNextDue(first, now, schedulerParametersFor(null, 0.8));
    const defaults = previewNextDue(second, now, schedulerParameters);
    expect(own.pass).not.toBe(defaults.pass);
    expect(queue[0]).toMatchObject({
      images: [{ name: 'a.png', url: '/a.png' }],
      last_review: iso(now - 30 * DAY_MS),
      next_due: { pass: iso(own.pass), fail: iso(own.fail) },
    });
    expect(queue[1]).toMatchObject({ images: [], next_due: { pass: iso(defaults.pass), fail: iso(defaults.fail) } });
    const examStart = Date.parse('2026-11-23T04:00:00Z');
    expect(defaults.pass).toBeGreaterThan(examStart);
    expect(queue[2]).toMatchObject({
      images: [],
      next_due: { pass: iso(examStart), fail: iso(Math.min(defaults.fail, examStart)) },
    });
  });

  it('counts the day’s new cards from 04:00 in the learner’s zone', async () => {
    const { service, calls } = queueSetup();
    await service.queue(userId, deckId, 'Asia/Tokyo');
    expect(calls[0]).toEqual(['allowance', { userId, deckId }, Date.parse('2026-11-21T19:00:00Z')]);
  });
});

describe('undo and stats', () => {
  it('maps each undo outcome to its answer, with the study day of the learner’s zone', async () => {
    const { service, decisions, setUndo } = setup();
    expect(await refusalOf(service.undo(userId, 'nope'))).toEqual({
      code: 'card_not_found',
      detail: messages.cardNotFound,
    });
    expect(decisions).toEqual([]);
    setUndo('card_not_found');
    expect((await refusalOf(service.undo(userId, cardId))).code).toBe('card_not_found');
    setUndo('nothing_to_undo');
    expect(await refusalOf(service.undo(userId, cardId))).toEqual({
      code: 'nothing_to_undo',
      detail: serverMessages.nothingToUndo,
    });
    setUndo('conflict');
    expect(await refusalOf(service.undo(userId, cardId))).toEqual({
      code: 'review_conflict',
      detail: messages.reviewConflict,
    });
    setUndo({ card: before });
    expect(await service.undo(userId, cardId, 'Asia/Tokyo')).toEqual({
      card: expect.objectContaining({ _id: cardId, status: 'new' }),
    });
    expect(decisions.at(-1)).toEqual(['undo', userId, cardId, now, Date.parse('2026-11-21T19:00:00Z')]);
  });

  it('answers the deck statistics', async () => {
    const { service } = setup();
    expect(await service.stats(userId, undefined)).toEqual({
      total_cards: 9,
      new_cards: 4,
      learning_cards: 2,
      due_cards: 3,
      cards_reviewed_today: 5,
      next_due_time: new Date(now + 60_000).toISOString(),
    });
  });

  it('read the study day in UTC by default, and answer no next due time when nothing is scheduled', async () => {
    const { service, decisions, setUndo, setStats } = setup();
    setUndo({ card: before });
    await service.undo(userId, cardId);
    expect(decisions.at(-1)).toEqual(['undo', userId, cardId, now, Date.parse('2026-11-22T04:00:00Z')]);
    setStats({ total: 0, fresh: 0, learning: 0, due: 0, reviewedToday: 0, nextDue: null });
    expect((await service.stats(userId, deckId)).next_due_time).toBeNull();
    expect(decisions.at(-1)).toEqual(['stats', { userId, deckId }, now, Date.parse('2026-11-22T04:00:00Z')]);
    await service.stats(userId, deckId, 'Asia/Tokyo');
    expect(decisions.at(-1)).toEqual(['stats', { userId, deckId }, now, Date.parse('2026-11-21T19:00:00Z')]);
  });
});

describe('scheduler parameters', () => {
  // The defaults with the first weight moved a little (ts-fsrs clips weights outside their ranges).
  const weights = schedulerParameters.w.map((value, index) => (index === 0 ? value + 0.1 : value));

  it('are the product defaults themselves for default weights and retention', () => {
    expect(schedulerParametersFor(null, 0.9)).toBe(schedulerParameters);
  });

  it('carry a learner’s weights and a deck’s retention, one object per pair of values', () => {
    const own = schedulerParametersFor(weights, 0.85);
    expect(own.w).toEqual(weights);
    expect(own.request_retention).toBe(0.85);
    expect(own.maximum_interval).toBe(schedulerParameters.maximum_interval);
    expect(schedulerParametersFor([...weights], 0.85)).toBe(own);
    const defaultsAtOtherRetention = schedulerParametersFor(null, 0.85);
    expect(defaultsAtOtherRetention).not.toBe(own);
    expect(defaultsAtOtherRetention.w).toEqual(schedulerParameters.w);
    expect(defaultsAtOtherRetention.request_retention).toBe(0.85);
    const ownAtDefaultRetention = schedulerParametersFor(weights, 0.9);
    expect(ownAtDefaultRetention).not.toBe(schedulerParameters);
    expect(ownAtDefaultRetention.w).toEqual(weights);
  });

  it('are kept apart for weights that differ only in where one value ends and the next begins', () => {
    const split = (a: number, b: number) => [a, b, ...schedulerParameters.w.slice(2)];
    const one = schedulerParametersFor(split(1, 23), 0.8);
    const other = schedulerParametersFor(split(12, 3), 0.8);
    expect(one.w.slice(0, 2)).toEqual([1, 23]);
    expect(other.w.slice(0, 2)).toEqual([12, 3]);
    expect(schedulerParametersFor(weights, 0.8).w).toEqual(weights);
  });

  it('read stored weights only when they are a JSON array of finite numbers', () => {
    expect(parseWeights('[0.5,1,2]')).toEqual([0.5, 1, 2]);
    for (const unreadable of [null, '[0.5,"1"]', '{"w":[1]}', '[1e999]', 'not json']) {
      expect(parseWeights(unreadable)).toBeNull();
    }
  });
});
