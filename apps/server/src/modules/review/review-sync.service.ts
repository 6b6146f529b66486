import type { DueCard, SyncResponse, SyncResult } from '@flashcards/shared/api-types';
import { DAY_MS, isoTime } from '@flashcards/shared/time';
import type { Clock } from '../../adapters/clock';
import { isId } from '../../adapters/ids';
import type { RateLimiter } from '../../adapters/rate-limit/rate-limiter';
import { rateLimited } from '../../http/app-error';
import { lastReviewOf, memoryOf, toCard } from '../study-core/card-state';
import { capAtExam, capPreview } from '../study-core/exam-date';
import type { CardToReview, ReviewAnswersRepo } from './review-answers.repo';
import type { SyncReviewInput } from './review-sync.schemas';
import { previewNextDue, randomFromId, review, schedulerParametersFor } from './scheduler';

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
/** As POST /cards/review: a write to the same card on another connection makes this one read the card again. */
const MAX_SYNC_ATTEMPTS = 10;

interface Pending {
  index: number;
  review: SyncReviewInput;
}

/** POST /reviews/sync (docs/api.md, "Offline review and sync"): answers given offline, each applied exactly once. */
export function createReviewSyncService(deps: ReviewSyncServiceDeps) {
  const { clock } = deps;

  /** One card's answers, oldest first: their results, in that order. */
  async function applyCard(
    userId: string,
    cardId: string,
    group: readonly SyncReviewInput[],
    weights: readonly number[] | null,
    timeZone: string,
  ): Promise<SyncResult[]> {
    const answers = group.map((item) => ({ ...item, reviewedAt: item.reviewed_at }));
    for (let attempt = 0; attempt < MAX_SYNC_ATTEMPTS; attempt++) {
      const synced = await deps.answers.syncCard(userId, cardId, answers, (card, item) => {
        // The answer is scheduled at its own time, with the learner's weights and its deck's retention.
        const parameters = schedulerParametersFor(weights, Number(card.desired_retention));
        const scheduled = review(card, item.result, item.reviewed_at, randomFromId(item.id), parameters);
        // The deck's exam date caps the due date as it would have online at the answer's time.
        const next = capAtExam(scheduled.next, card.exam_date, timeZone, item.reviewed_at);
        return {
          next,
          now: clock.now(),
          log: {
            id: item.id,
            user_id: userId,
            deck_id: card.deck_id,
            card_id: card.id,
            reviewed_at: item.reviewed_at,
            rating: scheduled.rating,
            state_before: card.state,
            state_after: next.state,
            due_before: card.due,
            due_after: next.due,
            stability: next.stability,
            difficulty: next.difficulty,
            scheduled_days: next.scheduled_days,
            elapsed_days: scheduled.elapsedDays,
            typed: item.typed ?? null,
            verdict: item.verdict ?? null,
          },
        };
      });
      if (synced === 'raced') continue;
      if (synced === 'not_found') return group.map(({ id }) => ({ id, status: 'rejected', code: 'card_not_found' }));
      const card = dueCard(synced.card, weights, timeZone);
      return group.map(({ id }, index): SyncResult => {
        const outcome = synced.outcomes[index];
        if (outcome === 'taken') return { id, status: 'rejected', code: 'review_id_taken' };
        if (outcome === 'duplicate' || outcome === undefined) return { id, status: 'duplicate' };
        return { id, status: outcome, card };
      });
    }
    return group.map(({ id }) => ({ id, status: 'rejected', code: 'review_conflict' }));
  }

  /** The card as the sync left it, with when its next answer would bring it back. */
  function dueCard(card: CardToReview, weights: readonly number[] | null, timeZone: string): DueCard {
    const parameters = schedulerParametersFor(weights, Number(card.desired_retention));
    const now = clock.now();
    const next = capPreview(previewNextDue(card, now, parameters), card.exam_date, timeZone, now);
    return {
      ...toCard(card),
      next_due: { pass: isoTime(next.pass), fail: isoTime(next.fail) },
      last_review: lastReviewOf(card),
      memory: memoryOf(card),
    };
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
      timeZone = 'UTC',
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
      const groups = [...byCard.entries()].map(([cardId, group]) => ({
        cardId,
        group: group.sort((a, b) => a.review.reviewed_at - b.review.reviewed_at || compare(a.review.id, b.review.id)),
      }));
      const worker = async () => {
        for (let next = groups.shift(); next; next = groups.shift()) {
          const { cardId, group } = next;
          const synced = await applyCard(
            userId,
            cardId,
            group.map((pending) => pending.review),
            weights,
            timeZone,
          );
          group.forEach((pending, position) => {
            results[pending.index] = synced[position] as SyncResult;
          });
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
