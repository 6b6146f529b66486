import { parametersWith, type SchedulingState, schedulerParameters } from '@flashcards/shared/scheduler';
import { DAY_MS } from '@flashcards/shared/time';
import { LRUCache } from 'lru-cache';
import { type FSRSParameters, forgetting_curve } from 'ts-fsrs';

/**
 * The server's side of the scheduler (packages/shared/src/scheduler.ts, which the review page runs offline too): a
 * learner's parameters kept by value, the weights stored on a user row, and the forgetting curve.
 */
export {
  fuzzSeed,
  type NextDue,
  previewNextDue,
  type RandomSource,
  type ReviewOutcome,
  randomFromId,
  ratingFor,
  review,
  schedulerParameters,
  toFsrsCard,
} from '@flashcards/shared/scheduler';

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
    parameters = parametersWith(weights, desiredRetention);
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
