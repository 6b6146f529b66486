import type { OptimizeResponse, SchedulingInfo } from '@flashcards/shared/api-types';
import { fillMessage } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { isoTime } from '@flashcards/shared/time';
import type { Clock } from '../../adapters/clock';
import type { ReviewHistories } from '../../adapters/fsrs/fit-task';
import {
  type FsrsOptimizer,
  OptimizerBusyError,
  OptimizerFailedError,
  OptimizerTimeoutError,
} from '../../adapters/fsrs/fsrs-optimizer';
import type { RateLimiter } from '../../adapters/rate-limit/rate-limiter';
import { errors, rateLimited } from '../../http/app-error';
import type { UserRow } from '../auth/users.repo';
import { parseWeights, schedulerParameters } from '../review/scheduler';
import { dayNumberAt, offsetSegments } from '../study-core/study-day';
import type { FsrsFittingRepo } from './fsrs-fitting.repo';

export interface FsrsFittingServiceDeps {
  repo: FsrsFittingRepo;
  optimizer: FsrsOptimizer;
  clock: Clock;
  /** FSRS_MIN_REVIEWS: fewer reviews than this are not fitted (noise). */
  minReviews: number;
  /** The most recent reviews a fit reads at most (memory and time stay bounded for any account). */
  maxReviews?: number;
  /** FSRS_OPTIMIZE_RATE_LIMIT_PER_DAY: fits one user may start per day (a fit changes little until reviews arrive). */
  limiter: RateLimiter;
  /** One fit at a time per user: a one-point limiter used as a lock, released when the fit ends. */
  lock: RateLimiter;
}

const DEFAULT_MAX_REVIEWS = 200_000;

type Learner = Pick<UserRow, 'id' | 'time_zone' | 'fsrs_parameters' | 'fsrs_optimized_at' | 'fsrs_reviews_used'>;

export const defaultWeights: readonly number[] = schedulerParameters.w;

/**
 * Personal scheduling: FSRS parameters fitted to the learner's own review log (binary ratings: fail = Again,
 * pass = Good), used for their later reviews; or the defaults.
 */
export function createFsrsFittingService(deps: FsrsFittingServiceDeps) {
  const { repo, clock } = deps;
  const maxReviews = deps.maxReviews ?? DEFAULT_MAX_REVIEWS;

  /** The learner's reviews grouped by card, with study-day numbers in their time zone. */
  const historiesOf = async (
    learner: Learner,
    count: number,
  ): Promise<{ histories: ReviewHistories; used: number }> => {
    const since = count > maxReviews ? await repo.nthLatestReviewAt(learner.id, maxReviews) : null;
    const rows = await repo.reviewsByCard(learner.id, since);
    let first = Number.POSITIVE_INFINITY;
    let last = Number.NEGATIVE_INFINITY;
    for (const row of rows) {
      const at = Number(row.reviewed_at);
      if (at < first) first = at;
      if (at > last) last = at;
    }
    const segments = rows.length > 0 ? offsetSegments(first, last, learner.time_zone) : [];
    const ratings = new Uint8Array(rows.length);
    const days = new Int32Array(rows.length);
    const starts: number[] = [];
    let previousCard: string | null = null;
    rows.forEach((row, index) => {
      if (row.card_id !== previousCard) {
        starts.push(index);
        previousCard = row.card_id;
      }
      const at = Number(row.reviewed_at);
      let offset = segments[0]?.offsetMs ?? 0;
      for (const segment of segments) if (at >= segment.from) offset = segment.offsetMs;
      ratings[index] = Number(row.rating) === 1 ? 1 : 3;
      days[index] = dayNumberAt(at, offset);
    });
    starts.push(rows.length);
    return { histories: { ratings, days, cardStarts: Int32Array.from(starts) }, used: rows.length };
  };

  return {
    async info(learner: Learner): Promise<SchedulingInfo> {
      const weights = parseWeights(learner.fsrs_parameters);
      const personalized = weights !== null && learner.fsrs_optimized_at !== null;
      const since = personalized ? learner.fsrs_optimized_at : null;
      return {
        personalized,
        parameters: [...(weights ?? defaultWeights)],
        optimized_at: personalized && since !== null ? isoTime(Number(since)) : null,
        reviews_used: personalized ? learner.fsrs_reviews_used : 0,
        reviews_since: await repo.countReviews(learner.id, since === null ? null : Number(since)),
        min_reviews: deps.minReviews,
      };
    },

    /** `signal` aborts when the client leaves: the fit's process is then killed. */
    async optimize(learner: Learner, signal?: AbortSignal): Promise<OptimizeResponse> {
      const count = await repo.countReviews(learner.id, null);
      if (count < deps.minReviews) {
        throw errors.notEnoughReviews({
          detail: fillMessage(serverMessages.notEnoughReviews, { min: deps.minReviews, n: count }),
        });
      }
      if ((await deps.lock.hit(learner.id)) !== null) throw errors.optimizeInProgress({ retryAfterSeconds: 10 });
      let fit: Awaited<ReturnType<FsrsOptimizer['fit']>>;
      let now: number;
      let used: number;
      try {
        const waitMs = await deps.limiter.hit(learner.id);
        if (waitMs !== null) throw rateLimited(waitMs);
        now = clock.now();
        const read = await historiesOf(learner, count);
        used = read.used;
        fit = await deps.optimizer.fit(read.histories, defaultWeights, signal ? { signal } : {});
      } catch (error) {
        if (error instanceof OptimizerTimeoutError) throw errors.optimizeTimeout();
        if (error instanceof OptimizerBusyError) throw errors.optimizeBusy();
        if (error instanceof OptimizerFailedError) throw errors.optimizeFailed();
        throw error;
      } finally {
        await deps.lock.reset(learner.id);
      }
      const lossDefault = fit.logLossDefault ?? 0;
      if (fit.parameters === null || fit.logLossPersonal === null) {
        return {
          parameters: [...defaultWeights],
          reviews_used: used,
          log_loss_default: lossDefault,
          log_loss_personal: lossDefault,
          detail: serverMessages.optimizeKeptDefaults,
        };
      }
      if (fit.logLossPersonal >= lossDefault) {
        return {
          parameters: [...defaultWeights],
          reviews_used: used,
          log_loss_default: lossDefault,
          log_loss_personal: fit.logLossPersonal,
          detail: serverMessages.optimizeNotBetter,
        };
      }
      await repo.saveFit(
        learner.id,
        {
          parameters: fit.parameters,
          optimizedAt: now,
          reviewsUsed: used,
          logLossDefault: lossDefault,
          logLossPersonal: fit.logLossPersonal,
        },
        now,
      );
      return {
        parameters: fit.parameters,
        reviews_used: used,
        log_loss_default: lossDefault,
        log_loss_personal: fit.logLossPersonal,
      };
    },

    async reset(learner: Learner): Promise<void> {
      await repo.clearFit(learner.id, clock.now());
    },
  };
}

export type FsrsFittingService = ReturnType<typeof createFsrsFittingService>;
