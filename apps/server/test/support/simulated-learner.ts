import { clipParameters, default_w, type FSRSState, fsrs, generatorParameters } from 'ts-fsrs';
import type { ReviewHistories } from '../../src/adapters/fsrs/fit-task';

/**
 * Simulated learners for the personal-scheduling tests and `npm run bench -- scheduling`: each one's true memory
 * follows FSRS with its own parameters (the defaults, perturbed), and each answer is drawn from that model
 * (pass with the true probability of recall). Cards are scheduled as the product schedules them before
 * personalization: FSRS with the default parameters at desired retention 0.9, one review per card per day.
 */

export interface SimulatedReview {
  card: number;
  /** Study day number from the first day (0). */
  day: number;
  /** 1 Again ("fail") or 3 Good ("pass"). */
  rating: 1 | 3;
}

/** A small deterministic PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FSRS parameters unlike the defaults: every weight scaled by a random factor from 1/2.5 to 2.5, then clipped. */
export function perturbedParameters(random: () => number): number[] {
  const w = default_w.map((value, index) => {
    if (index === 20) return 0.1 + random() * 0.7;
    if (index >= 17 && index <= 19) return value;
    return value * Math.exp((random() * 2 - 1) * Math.log(2.5));
  });
  return clipParameters(w, 1, true);
}

/**
 * `reviews` answers of one learner with true parameters `trueW`: up to `newPerDay` new cards a day, every card due
 * that day reviewed once; a failed card comes back the next day.
 */
export function simulateLearner(
  trueW: readonly number[],
  reviews: number,
  random: () => number,
  newPerDay = 10,
): SimulatedReview[] {
  const truth = fsrs(generatorParameters({ w: [...trueW], enable_fuzz: false, enable_short_term: false }));
  const scheduler = fsrs(generatorParameters({ request_retention: 0.9, enable_fuzz: false, enable_short_term: false }));
  interface SimCard {
    trueState: FSRSState | null;
    schedState: FSRSState | null;
    lastDay: number;
    dueDay: number;
  }
  const cards: SimCard[] = [];
  const log: SimulatedReview[] = [];
  for (let day = 0; log.length < reviews; day++) {
    for (let n = 0; n < newPerDay; n++) cards.push({ trueState: null, schedState: null, lastDay: day, dueDay: day });
    for (let id = 0; id < cards.length && log.length < reviews; id++) {
      const card = cards[id] as SimCard;
      if (card.dueDay !== day) continue;
      const elapsed = day - card.lastDay;
      const recall = card.trueState === null ? 0.75 : truth.forgetting_curve(elapsed, card.trueState.stability);
      const rating: 1 | 3 = random() < recall ? 3 : 1;
      card.trueState = truth.next_state(card.trueState, elapsed, rating);
      card.schedState = scheduler.next_state(card.schedState, elapsed, rating);
      card.lastDay = day;
      card.dueDay = day + (rating === 1 ? 1 : Math.max(1, scheduler.next_interval(card.schedState.stability, elapsed)));
      log.push({ card: id, day, rating });
    }
  }
  return log;
}

/** A simulated log in the FSRS optimizer's input shape: grouped by card, each card's answers in order. */
export function reviewHistoriesOf(log: SimulatedReview[]): ReviewHistories {
  const byCard = new Map<number, SimulatedReview[]>();
  for (const review of log) byCard.set(review.card, [...(byCard.get(review.card) ?? []), review]);
  const ratings: number[] = [];
  const days: number[] = [];
  const starts: number[] = [];
  for (const reviews of byCard.values()) {
    starts.push(ratings.length);
    for (const review of reviews) {
      ratings.push(review.rating);
      days.push(review.day);
    }
  }
  starts.push(ratings.length);
  return { ratings: Uint8Array.from(ratings), days: Int32Array.from(days), cardStarts: Int32Array.from(starts) };
}

/** Histories from per-card lists of [rating, study day]. */
export function historiesOf(cards: [number, number][][]): ReviewHistories {
  const reviews = cards.flat();
  const starts = [0];
  for (const card of cards) starts.push((starts.at(-1) ?? 0) + card.length);
  return {
    ratings: Uint8Array.from(reviews.map(([rating]) => rating)),
    days: Int32Array.from(reviews.map(([, day]) => day)),
    cardStarts: Int32Array.from(starts),
  };
}
