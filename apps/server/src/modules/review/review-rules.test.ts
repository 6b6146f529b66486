import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { refusalOf } from '../../../test/support/api-error';
import { memoryRateLimiters } from '../../adapters/rate-limit/rate-limiter';
import { CardState, newCardState } from '../study-core/card-state';
import type { DeckStatsRepo } from './deck-stats.repo';
import type { DueQueueRepo } from './due-queue.repo';
import { createReviewService } from './review.service';
import type { ReviewAnswersRepo } from './review-answers.repo';
import { parseWeights, schedulerParameters, schedulerParametersFor } from './scheduler';

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

type Outcome = 'not_found' | 'raced' | 'write';

function setup(outcomes: Outcome[] = ['write'], limit = 3) {
  const decisions: unknown[] = [];
  let calls = 0;
  const answers = {
    async reviewCard(_userId: string, _cardId: string, decide: (card: typeof before) => unknown) {
      const outcome = outcomes[Math.min(calls, outcomes.length - 1)];
      calls++;
      if (outcome === 'not_found') return 'not_found';
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
    stats: async () => ({ total: 9, fresh: 4, learning: 2, due: 3, reviewedToday: 5, nextDue: now + 60_000 }),
  } as unknown as DeckStatsRepo;
  let ids = 0;
  const service = createReviewService({
    queueReads: {} as DueQueueRepo,
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

  it('read stored weights only when they are a JSON array of finite numbers', () => {
    expect(parseWeights('[0.5,1,2]')).toEqual([0.5, 1, 2]);
    for (const unreadable of [null, '[0.5,"1"]', '{"w":[1]}', '[1e999]', 'not json']) {
      expect(parseWeights(unreadable)).toBeNull();
    }
  });
});
