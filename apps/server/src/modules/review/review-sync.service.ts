import type { DueCard, SyncResponse, SyncResult } from '@flashcards/shared/api-types';
import { DAY_MS, isoTime } from '@flashcards/shared/time';
import type { FSRSParameters } from 'ts-fsrs';
import type { Clock } from '../../adapters/clock';
import { isId } from '../../adapters/ids';
import type { RateLimiter } from '../../adapters/rate-limit/rate-limiter';
import { rateLimited } from '../../http/app-error';
import { type SchedulingState, toCard } from '../study-core/card-state';
import type { ReviewAnswersRepo } from './review-answers.repo';
import type { SyncReviewInput } from './review-sync.schemas';
import { previewNextDue, type RandomSource, review, schedulerParametersFor } from './scheduler';

export interface ReviewSyncServiceDeps {
  answers: ReviewAnswersRepo;
  clock: Clock;
  /** The same per-account answer limit as POST /cards/review: each answer of a batch counts once. */
  limiter: RateLimiter;
}

/** How far ahead of the server's clock an answer may be dated (a device's clock runs a little fast). */
export const SYNC_MAX_AHEAD_MS = 60_000;
/** How old an answer may be: older ones would schedule a card from a state the learner has long left. */
export const SYNC_MAX_AGE_MS = 30 * DAY_MS;
/** Cards synced at the same time; one card's answers always go one after another, in time order. */
const SYNC_CONCURRENCY = 8;
/** As POST /cards/review: a review of the same card on another connection makes this one read the card again. */
const MAX_SYNC_ATTEMPTS = 10;

/**
 * The fuzz of a synced answer drawn from its id, so that the same answer scheduled again (another device's order,
 * a replay) gets the same interval.
 */
function randomFromId(id: string): RandomSource {
  const value = Number.parseInt(id.replaceAll('-', '').slice(0, 13), 16) / 16 ** 13;
  return () => value;
}

interface Pending {
  index: number;
  review: SyncReviewInput;
}

/** POST /reviews/sync (docs/api.md, "Offline review and sync"): answers given offline, each applied exactly once. */
export function createReviewSyncService(deps: ReviewSyncServiceDeps) {
  const { answers, clock } = deps;

  async function applyOne(
    userId: string,
    item: SyncReviewInput,
    weights: readonly number[] | null,
  ): Promise<SyncResult> {
    const { id } = item;
    for (let attempt = 0; attempt < MAX_SYNC_ATTEMPTS; attempt++) {
      const decided: { parameters: FSRSParameters | null; next: SchedulingState | null } = {
        parameters: null,
        next: null,
      };
      const outcome = await answers.syncReview(userId, id, item.card_id, item.reviewed_at, (before) => {
        // The answer is scheduled at its own time, with the learner's weights and its deck's retention.
        const parameters = schedulerParametersFor(weights, Number(before.desired_retention));
        const scheduled = review(before, item.result, item.reviewed_at, randomFromId(id), parameters);
        decided.parameters = parameters;
        decided.next = scheduled.next;
        return {
          next: scheduled.next,
          now: clock.now(),
          log: {
            id,
            user_id: userId,
            deck_id: before.deck_id,
            card_id: before.id,
            reviewed_at: item.reviewed_at,
            rating: scheduled.rating,
            state_before: before.state,
            state_after: scheduled.next.state,
            due_before: before.due,
            due_after: scheduled.next.due,
            stability: scheduled.next.stability,
            difficulty: scheduled.next.difficulty,
            scheduled_days: scheduled.next.scheduled_days,
            elapsed_days: scheduled.elapsedDays,
          },
        };
      });
      if (outcome === 'raced') continue;
      if (outcome === 'duplicate') return { id, status: 'duplicate' };
      if (outcome === 'taken') return { id, status: 'rejected', code: 'review_id_taken' };
      if (outcome === 'not_found') return { id, status: 'rejected', code: 'card_not_found' };
      const parameters = decided.parameters;
      if (parameters === null) throw new Error('syncReview wrote without a decision');
      if ('superseded' in outcome) {
        return { id, status: 'superseded', card: dueCard(outcome.superseded, outcome.superseded, parameters) };
      }
      if (decided.next === null) throw new Error('syncReview moved a card without a decision');
      return { id, status: 'applied', card: dueCard(outcome.applied, decided.next, parameters) };
    }
    return { id, status: 'rejected', code: 'review_conflict' };
  }

  function dueCard(row: Parameters<typeof toCard>[0], state: SchedulingState, parameters: FSRSParameters): DueCard {
    const next = previewNextDue(state, clock.now(), parameters);
    return { ...toCard(row), next_due: { pass: isoTime(next.pass), fail: isoTime(next.fail) } };
  }

  return {
    /**
     * Applies `reviews` (in any order) card by card in `reviewed_at` order, each id once: an id already in the
     * user's log, or earlier in the batch, is `duplicate`; an answer older than the card's latest applied one is
     * logged as `superseded`; answers dated over a minute ahead or over 30 days back, and unknown or foreign cards,
     * are `rejected` with a code. Results come in the request's order.
     */
    async sync(
      userId: string,
      reviews: readonly SyncReviewInput[],
      weights: readonly number[] | null = null,
    ): Promise<SyncResponse> {
      const waitMs = await deps.limiter.hit(userId, reviews.length);
      if (waitMs !== null) throw rateLimited(waitMs);
      const now = clock.now();
      const results: SyncResult[] = new Array(reviews.length);
      const seen = new Set<string>();
      const byCard = new Map<string, Pending[]>();
      reviews.forEach((item, index) => {
        if (seen.has(item.id)) {
          results[index] = { id: item.id, status: 'duplicate' };
          return;
        }
        seen.add(item.id);
        const code =
          item.reviewed_at > now + SYNC_MAX_AHEAD_MS
            ? 'review_in_future'
            : item.reviewed_at < now - SYNC_MAX_AGE_MS
              ? 'review_too_old'
              : isId(item.card_id)
                ? null
                : 'card_not_found';
        if (code !== null) {
          results[index] = { id: item.id, status: 'rejected', code };
          return;
        }
        const group = byCard.get(item.card_id) ?? [];
        group.push({ index, review: item });
        byCard.set(item.card_id, group);
      });
      const groups = [...byCard.values()].map((group) =>
        group.sort((a, b) => a.review.reviewed_at - b.review.reviewed_at || compare(a.review.id, b.review.id)),
      );
      const worker = async () => {
        for (let group = groups.shift(); group; group = groups.shift()) {
          for (const { index, review: item } of group) results[index] = await applyOne(userId, item, weights);
        }
      };
      await Promise.all(Array.from({ length: Math.min(SYNC_CONCURRENCY, groups.length) }, worker));
      return { results };
    },
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export type ReviewSyncService = ReturnType<typeof createReviewSyncService>;
