import {
  createEmptyCard,
  forgetting_curve,
  fsrs,
  generatorParameters,
  get_fuzz_range,
  Rating,
  State,
  StrategyMode,
} from 'ts-fsrs';
import { describe, expect, it } from 'vitest';
import { fixedRandom } from '../../../test/support/study';
import { CardState, newCardState, type SchedulingState, statusOf } from '../study-core/card-state';
import {
  fuzzSeed,
  previewNextDue,
  type RandomSource,
  retrievabilityAt,
  review,
  schedulerParameters,
  schedulerParametersFor,
  toFsrsCard,
} from './scheduler';

const MINUTE = 60_000;
const DAY = 86_400_000;
const start = Date.parse('2026-11-22T10:00:00.000Z');

/** ts-fsrs itself with the product's parameters (checked below), fed the seed the same random source gives. */
function reference(
  card: SchedulingState,
  rating: Rating.Again | Rating.Good,
  now: number,
  random: RandomSource,
  parameters = schedulerParameters,
) {
  const seed = fuzzSeed(random);
  const scheduler = fsrs(parameters).useStrategy(StrategyMode.SEED, () => seed);
  return scheduler.next(toFsrsCard(card), new Date(now), rating).card;
}

/** A card in long-term review (never lapsed), due at `start` after an interval of `intervalDays`. */
function reviewedOnTime(card: { stability: number; difficulty: number; intervalDays: number; reps: number }) {
  const { stability, difficulty, intervalDays, reps } = card;
  return {
    ...newCardState(start),
    state: CardState.Review,
    stability,
    difficulty,
    scheduled_days: intervalDays,
    reps,
    last_review: start - intervalDays * DAY,
  } satisfies SchedulingState;
}

describe('scheduler parameters', () => {
  it('are the product’s: steps 1 m and 10 m, relearning 10 m, retention 0.9, 100 years, fuzz on', () => {
    expect(schedulerParameters).toMatchObject({
      request_retention: 0.9,
      maximum_interval: 36_500,
      enable_fuzz: true,
      enable_short_term: true,
      learning_steps: ['1m', '10m'],
      relearning_steps: ['10m'],
    });
  });
});

describe('review (pure)', () => {
  it('walks new → learning (1 m) → learning (10 m) → due (days) → relearning (10 m) → due, as ts-fsrs does', () => {
    const ours = fixedRandom();
    const theirs = fixedRandom();
    let card = newCardState(start);
    let now = start;
    const walk: { result: 'pass' | 'fail'; state: number; wait: number | 'days' }[] = [
      { result: 'fail', state: State.Learning, wait: MINUTE },
      { result: 'pass', state: State.Learning, wait: 10 * MINUTE },
      { result: 'pass', state: State.Review, wait: 'days' },
      { result: 'fail', state: State.Relearning, wait: 10 * MINUTE },
      { result: 'pass', state: State.Review, wait: 'days' },
      { result: 'pass', state: State.Review, wait: 'days' },
      { result: 'pass', state: State.Review, wait: 'days' },
    ];
    let previousInterval = 0;
    for (const step of walk) {
      const rating = step.result === 'pass' ? Rating.Good : Rating.Again;
      const expected = reference(card, rating, now, theirs);
      const outcome = review(card, step.result, now, ours);
      expect(outcome.rating).toBe(rating);
      expect(outcome.next.state).toBe(step.state);
      expect(outcome.next.due).toBe(expected.due.getTime());
      expect(outcome.next.stability).toBe(expected.stability);
      expect(outcome.next.difficulty).toBe(expected.difficulty);
      expect(outcome.next.scheduled_days).toBe(expected.scheduled_days);
      expect(outcome.next.reps).toBe(card.reps + 1);
      expect(outcome.next.last_review).toBe(now);
      expect(outcome.elapsedDays).toBe(card.last_review === null ? 0 : (now - card.last_review) / DAY);
      if (step.wait === 'days') {
        expect(outcome.next.scheduled_days).toBeGreaterThanOrEqual(1);
        expect(outcome.next.due - now).toBe(outcome.next.scheduled_days * DAY);
        previousInterval = outcome.next.scheduled_days;
      } else {
        expect(outcome.next.due - now).toBe(step.wait);
        expect(outcome.next.scheduled_days).toBe(0);
      }
      card = outcome.next;
      now = card.due;
    }
    expect(card.lapses).toBe(1);
    expect(card.reps).toBe(walk.length);
    // Successive passes lengthen the interval beyond the 2.5 days where fuzz starts.
    expect(previousInterval).toBeGreaterThan(3);
  });

  it('fuzzes an interval of several days within ts-fsrs’s range, decided by the random source alone', () => {
    // A card in long-term review with 30 days of stability, reviewed on time.
    const card = reviewedOnTime({ stability: 30, difficulty: 5, intervalDays: 30, reps: 6 });
    const intervals = [0.01, 0.25, 0.5, 0.75, 0.99].map(
      (value) => review(card, 'pass', start, () => value).next.scheduled_days,
    );
    const unfuzzed = review(card, 'pass', start, () => 0.5, { ...schedulerParameters, enable_fuzz: false }).next
      .scheduled_days;
    const { min_ivl, max_ivl } = get_fuzz_range(unfuzzed, 30, 36_500);
    for (const interval of intervals) {
      expect(interval).toBeGreaterThanOrEqual(min_ivl);
      expect(interval).toBeLessThanOrEqual(max_ivl);
    }
    expect(new Set(intervals).size).toBeGreaterThan(1);
    // Same source, same interval.
    expect(review(card, 'pass', start, () => 0.25).next).toEqual(review(card, 'pass', start, () => 0.25).next);
  });

  it('reuses one scheduler per learner’s parameters, each review drawing its own fuzz as a fresh ts-fsrs would', () => {
    const weights = schedulerParameters.w.map((weight, index) => (index === 2 ? weight * 1.5 : weight));
    const parameters = schedulerParametersFor(weights, 0.85);
    expect(schedulerParametersFor([...weights], 0.85)).toBe(parameters);
    expect(schedulerParametersFor(weights, 0.8)).not.toBe(parameters);
    const fresh = generatorParameters({ ...schedulerParameters, request_retention: 0.85, w: [...weights] });
    const card = reviewedOnTime({ stability: 30, difficulty: 5, intervalDays: 30, reps: 6 });
    for (const value of [0.01, 0.5, 0.99, 0.5]) {
      const next = review(card, 'pass', start, () => value, parameters).next;
      const expected = reference(card, Rating.Good, start, () => value, fresh);
      expect(next.due).toBe(expected.due.getTime());
      expect(next.stability).toBe(expected.stability);
    }
  });

  it('leaves short intervals unfuzzed: a first pass schedules the 10-minute step whatever the randomness', () => {
    const card = newCardState(start);
    const dues = [0.1, 0.9].map((value) => review(card, 'pass', start, () => value).next.due);
    expect(dues).toEqual([start + 10 * MINUTE, start + 10 * MINUTE]);
  });

  it('starts from ts-fsrs’s empty card', () => {
    const empty = createEmptyCard(new Date(start));
    expect(toFsrsCard(newCardState(start))).toEqual({ ...empty, last_review: undefined });
  });

  it('caps intervals at 100 years', () => {
    const card = reviewedOnTime({ stability: 1_000_000, difficulty: 1, intervalDays: 36_500, reps: 40 });
    // ts-fsrs keeps Good one day above Hard, so a Hard capped at 36,500 days puts Good at 36,501.
    const unfuzzed = { ...schedulerParameters, enable_fuzz: false };
    expect(review(card, 'pass', start, () => 0.99, unfuzzed).next.scheduled_days).toBe(36_501);
    for (const value of [0.01, 0.5, 0.99]) {
      expect(review(card, 'pass', start, () => value).next.scheduled_days).toBeLessThanOrEqual(36_501);
    }
    const tenYears = { ...schedulerParameters, maximum_interval: 3650 };
    expect(review(card, 'pass', start, () => 0.5, tenYears).next.scheduled_days).toBeLessThanOrEqual(3651);
  });
});

describe('previewNextDue', () => {
  it('shows the unfuzzed due dates of a pass and a fail with the given parameters', () => {
    const card = reviewedOnTime({ stability: 30, difficulty: 5, intervalDays: 30, reps: 6 });
    const parameters = schedulerParametersFor(null, 0.8);
    const unfuzzed = fsrs({
      ...generatorParameters({ ...schedulerParameters, request_retention: 0.8 }),
      enable_fuzz: false,
    });
    const expected = (rating: Rating.Good | Rating.Again) =>
      unfuzzed.next(toFsrsCard(card), new Date(start), rating).card.due.getTime();
    const preview = previewNextDue(card, start, parameters);
    expect(preview).toEqual({ pass: expected(Rating.Good), fail: expected(Rating.Again) });
    // A lower retention asks for longer intervals than the defaults.
    expect(preview.pass).toBeGreaterThan(previewNextDue(card, start).pass);
  });
});

describe('retrievabilityAt', () => {
  const card = { stability: 10, last_review: start };

  it('follows ts-fsrs’s forgetting curve from the last answer', () => {
    expect(retrievabilityAt(card, start + 5 * DAY)).toBe(forgetting_curve(schedulerParameters.w, 5, 10));
    expect(retrievabilityAt(card, start + 5 * DAY)).toBeLessThan(1);
    expect(retrievabilityAt(card, start + 5 * DAY)).toBeGreaterThan(retrievabilityAt(card, start + 6 * DAY));
  });

  it('is certain at the answer (and before it), and 0 for a card never answered or without stability', () => {
    expect(retrievabilityAt(card, start)).toBe(1);
    expect(retrievabilityAt(card, start - DAY)).toBe(1);
    expect(retrievabilityAt({ stability: 10, last_review: null }, start)).toBe(0);
    expect(retrievabilityAt({ stability: 0, last_review: start }, start)).toBe(0);
    expect(retrievabilityAt({ stability: Number.NaN, last_review: start }, start)).toBe(0);
  });
});

describe('fuzz seed', () => {
  it('is never empty, even from a random source that draws 0', () => {
    expect(fuzzSeed(() => 0)).toBe('0');
    expect(fuzzSeed(() => 0.5)).toBe('i');
  });
});

describe('statusOf', () => {
  it('maps FSRS states to the API’s statuses', () => {
    expect([0, 1, 2, 3].map((state) => statusOf(state as 0 | 1 | 2 | 3))).toEqual([
      'new',
      'learning',
      'due',
      'relearning',
    ]);
  });
});
