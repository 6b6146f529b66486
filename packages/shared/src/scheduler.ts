import {
  type FSRS,
  type FSRSParameters,
  type Card as FsrsCard,
  fsrs,
  generatorParameters,
  Rating,
  StrategyMode,
} from 'ts-fsrs';
import type { CardStatus, DueCard, ReviewResult } from './api-types';
import { DAY_MS, isoTime } from './time';

/**
 * The spaced-repetition scheduler: a pure function of (card state, result, now, parameters, random source), with
 * no database and no clock of its own. FSRS through ts-fsrs; "fail" is Again and "pass" is Good. The server schedules
 * with it, and the review page with no network, so that an answer given offline is scheduled on the device as the
 * server schedules it when the answer syncs. Only the review page imports it (ts-fsrs stays out of other pages).
 */

/** ts-fsrs's `State`: 0 new, 1 learning, 2 long-term review, 3 relearning. */
export type SchedulingStateNumber = 0 | 1 | 2 | 3;

/** The FSRS memory fields: numbers both in the cards table and in ts-fsrs's Card (state and times need converting). */
export interface FsrsMemory {
  stability: number;
  difficulty: number;
  scheduled_days: number;
  learning_steps: number;
  reps: number;
  lapses: number;
}

/** The FSRS state of one card (times in epoch ms), as the cards table keeps it. */
export interface SchedulingState extends FsrsMemory {
  state: SchedulingStateNumber;
  due: number;
  last_review: number | null;
}

/** The FSRS memory fields of a card row, a snapshot or a ts-fsrs Card, and nothing else. */
export function fsrsMemoryOf(card: FsrsMemory): FsrsMemory {
  return {
    stability: card.stability,
    difficulty: card.difficulty,
    scheduled_days: card.scheduled_days,
    learning_steps: card.learning_steps,
    reps: card.reps,
    lapses: card.lapses,
  };
}

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

/**
 * The product's parameters with a learner's own FSRS weights (null: the defaults) and a deck's desired retention: a
 * new object each call (the server keeps them by value, so that its schedulers are reused).
 */
export function parametersWith(weights: readonly number[] | null, desiredRetention: number): FSRSParameters {
  if (weights === null && desiredRetention === schedulerParameters.request_retention) return schedulerParameters;
  return generatorParameters({
    ...schedulerParameters,
    request_retention: desiredRetention,
    ...(weights === null ? {} : { w: [...weights] }),
  });
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

/**
 * The fuzz of an answer given offline, drawn from its id, so that the same answer scheduled again (on the device, at
 * the sync, in another device's order) gets the same interval.
 */
export function randomFromId(id: string): RandomSource {
  const value = Number.parseInt(id.replaceAll('-', '').slice(0, 13), 16) / 16 ** 13;
  return () => value;
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

const stateOfStatus: Record<CardStatus, SchedulingStateNumber> = { new: 0, learning: 1, due: 2, relearning: 3 };
const statusOfState: Record<SchedulingStateNumber, CardStatus> = { 0: 'new', 1: 'learning', 2: 'due', 3: 'relearning' };

/** A due card's FSRS state, as the API sent it (GET /cards/due, an answer's reply). */
export function schedulingStateOf(card: DueCard): SchedulingState {
  return {
    state: stateOfStatus[card.status],
    due: Date.parse(card.due_date),
    ...card.memory,
    reps: card.reps,
    lapses: card.lapses,
    last_review: card.last_review === null ? null : Date.parse(card.last_review),
  };
}

/**
 * The card as POST /reviews/sync will leave it after the answer `id` given at `reviewedAt` (its fuzz drawn from the
 * id, as the sync draws it), with when its next answer would bring it back: what the review page shows offline.
 * The deck's exam date is not applied here (the server caps the due date at the sync).
 */
export function answerOffline(
  card: DueCard,
  result: ReviewResult,
  reviewedAt: number,
  id: string,
  parameters: FSRSParameters = schedulerParameters,
): DueCard {
  const { next } = review(schedulingStateOf(card), result, reviewedAt, randomFromId(id), parameters);
  const preview = previewNextDue(next, reviewedAt, parameters);
  const { reps, lapses, ...memory } = fsrsMemoryOf(next);
  return {
    ...card,
    status: statusOfState[next.state],
    due_date: isoTime(next.due),
    reps,
    lapses,
    memory,
    next_due: { pass: isoTime(preview.pass), fail: isoTime(preview.fail) },
    last_review: isoTime(reviewedAt),
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
    state: card.state as SchedulingStateNumber,
    due: card.due.getTime(),
    ...fsrsMemoryOf(card),
    // ts-fsrs sets last_review to the review time.
    last_review: card.last_review?.getTime() ?? reviewedAt,
  };
}
