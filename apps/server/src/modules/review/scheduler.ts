import type { ReviewResult } from '@flashcards/shared/api-types';
import { DAY_MS } from '@flashcards/shared/time';
import { LRUCache } from 'lru-cache';
import {
  type FSRS,
  type FSRSParameters,
  type Card as FsrsCard,
  forgetting_curve,
  fsrs,
  generatorParameters,
  Rating,
  StrategyMode,
} from 'ts-fsrs';
import type { FsrsState } from '../../db/schema';
import { fsrsMemoryOf, type SchedulingState } from '../study-core/card-state';

/**
 * The spaced-repetition scheduler: a pure function of (card state, result, now, parameters, random source), with
 * no database and no clock of its own. FSRS through ts-fsrs; "fail" is Again and "pass" is Good.
 */

/** What one review produced: the card's next state and the review-log facts. */
export interface ReviewOutcome {
  next: SchedulingState;
  rating: Rating.Again | Rating.Good;
  /** Days since the previous review (fractional), 0 for a card never reviewed. */
  elapsedDays: number;
}

/** A source of numbers in [0, 1); it decides the interval fuzz. Tests pass a fixed sequence. */
export type RandomSource = () => number;

/**
 * The product's parameters: learning steps 1 m and 10 m, relearning 10 m, desired retention 0.9, maximum interval
 * 100 years, fuzz on (ts-fsrs fuzzes intervals of 2.5 days or more), FSRS-6 default weights.
 */
export const schedulerParameters: FSRSParameters = generatorParameters({
  request_retention: 0.9,
  maximum_interval: 36_500,
  enable_fuzz: true,
  enable_short_term: true,
  learning_steps: ['1m', '10m'],
  relearning_steps: ['10m'],
});

// A learner's parameters, kept by their values (the 1,000 most recently used): the same object on every review, so
// that its scheduler is reused.
const parametersByKey = new LRUCache<string, FSRSParameters>({ max: 1_000 });

/**
 * The product's parameters with a learner's own FSRS weights (null: the defaults) and a deck's desired retention.
 */
export function schedulerParametersFor(weights: readonly number[] | null, desiredRetention: number): FSRSParameters {
  if (weights === null && desiredRetention === schedulerParameters.request_retention) return schedulerParameters;
  const key = `${desiredRetention}:${weights?.join(',') ?? ''}`;
  let parameters = parametersByKey.get(key);
  if (!parameters) {
    parameters = generatorParameters({
      ...schedulerParameters,
      request_retention: desiredRetention,
      ...(weights === null ? {} : { w: [...weights] }),
    });
    parametersByKey.set(key, parameters);
  }
  return parameters;
}

/** The weights stored on a user row (a JSON array), or null for the defaults (also for anything unreadable). */
export function parseWeights(stored: string | null): number[] | null {
  if (stored === null) return null;
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed) && parsed.every((value) => typeof value === 'number' && Number.isFinite(value))
      ? (parsed as number[])
      : null;
  } catch {
    return null;
  }
}

export const ratingFor: Record<ReviewResult, Rating.Again | Rating.Good> = {
  fail: Rating.Again,
  pass: Rating.Good,
};

/**
 * The seed ts-fsrs's fuzz draws from, taken from the injected random source (ts-fsrs turns a seed string into its
 * fuzz factor with a seeded PRNG, so the same source gives the same intervals).
 */
export function fuzzSeed(random: RandomSource): string {
  return random().toString(36).slice(2) || '0';
}

export function review(
  card: SchedulingState,
  result: ReviewResult,
  now: number,
  random: RandomSource,
  parameters: FSRSParameters = schedulerParameters,
): ReviewOutcome {
  const rating = ratingFor[result];
  const scheduler = schedulerFor(parameters);
  scheduler.seed = fuzzSeed(random);
  const elapsedDays = card.last_review === null ? 0 : Math.max(0, (now - card.last_review) / DAY_MS);
  const { card: next } = scheduler.fsrs.next(toFsrsCard(card, elapsedDays), new Date(now), rating);
  return { next: fromFsrsCard(next, now), rating, elapsedDays };
}

/**
 * The probability that a card is recalled at `at` (ts-fsrs's forgetting curve with `parameters`' weights): 0 for a
 * card never answered.
 */
export function retrievabilityAt(
  card: Pick<SchedulingState, 'stability' | 'last_review'>,
  at: number,
  parameters: FSRSParameters = schedulerParameters,
): number {
  if (card.last_review === null || !(card.stability > 0)) return 0;
  return forgetting_curve(parameters.w, Math.max(0, (at - card.last_review) / DAY_MS), card.stability);
}

/** When a card would next be due (epoch ms) after each answer. */
export type NextDue = Record<ReviewResult, number>;

/**
 * When `card` would next be due after a pass and after a fail at `now`, without the interval fuzz (a review draws its
 * fuzz at random, so the preview shows the interval the fuzz spreads around).
 */
export function previewNextDue(
  card: SchedulingState,
  now: number,
  parameters: FSRSParameters = schedulerParameters,
): NextDue {
  const scheduler = unfuzzedSchedulerFor(parameters);
  const elapsedDays = card.last_review === null ? 0 : Math.max(0, (now - card.last_review) / DAY_MS);
  const fsrsCard = toFsrsCard(card, elapsedDays);
  const at = new Date(now);
  return {
    pass: scheduler.next(fsrsCard, at, ratingFor.pass).card.due.getTime(),
    fail: scheduler.next(fsrsCard, at, ratingFor.fail).card.due.getTime(),
  };
}

const unfuzzedSchedulers = new WeakMap<FSRSParameters, FSRS>();

function unfuzzedSchedulerFor(parameters: FSRSParameters): FSRS {
  let scheduler = unfuzzedSchedulers.get(parameters);
  if (!scheduler) {
    scheduler = fsrs({ ...parameters, enable_fuzz: false });
    unfuzzedSchedulers.set(parameters, scheduler);
  }
  return scheduler;
}

/** A ts-fsrs scheduler and the fuzz seed its next call draws from (set just before that call; scheduling is sync). */
interface SeededScheduler {
  fsrs: FSRS;
  seed: string;
}

// Building a ts-fsrs scheduler (clipping the weights, a proxy over the parameters) cost more than scheduling a review.
const schedulers = new WeakMap<FSRSParameters, SeededScheduler>();

function schedulerFor(parameters: FSRSParameters): SeededScheduler {
  let scheduler = schedulers.get(parameters);
  if (!scheduler) {
    const seeded: SeededScheduler = { fsrs: fsrs(parameters), seed: '0' };
    seeded.fsrs.useStrategy(StrategyMode.SEED, () => seeded.seed);
    schedulers.set(parameters, seeded);
    scheduler = seeded;
  }
  return scheduler;
}

export function toFsrsCard(card: SchedulingState, elapsedDays = 0): FsrsCard {
  return {
    due: new Date(card.due),
    ...fsrsMemoryOf(card),
    elapsed_days: Math.floor(elapsedDays),
    state: card.state,
    ...(card.last_review === null ? {} : { last_review: new Date(card.last_review) }),
  };
}

function fromFsrsCard(card: FsrsCard, reviewedAt: number): SchedulingState {
  return {
    state: card.state as FsrsState,
    due: card.due.getTime(),
    ...fsrsMemoryOf(card),
    // ts-fsrs sets last_review to the review time.
    last_review: card.last_review?.getTime() ?? reviewedAt,
  };
}
