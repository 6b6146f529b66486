import type { AnswerResponse, Card, DeckStats, DueCard, ReviewResult } from '@flashcards/shared/api-types';
import { isoTime } from '@flashcards/shared/time';
import type { FSRSParameters } from 'ts-fsrs';
import type { Clock } from '../../adapters/clock';
import { type IdGenerator, isId } from '../../adapters/ids';
import type { RateLimiter } from '../../adapters/rate-limit/rate-limiter';
import { errors, rateLimited } from '../../http/app-error';
import { lastReviewOf, memoryOf, type SchedulingState, toCard } from '../study-core/card-state';
import { type DeckLookup, deckScope } from '../study-core/deck-scope';
import { buildQueue } from '../study-core/due-queue';
import { capAtExam, capPreview } from '../study-core/exam-date';
import { nextStudyDayStart, studyDayStart } from '../study-core/study-day';
import type { DeckStatsRepo } from './deck-stats.repo';
import type { DueQueueRepo } from './due-queue.repo';
import type { ReviewAnswersRepo, ReviewLogRow } from './review-answers.repo';
import { previewNextDue, type RandomSource, review, schedulerParameters, schedulerParametersFor } from './scheduler';

export interface ReviewServiceDeps {
  queueReads: DueQueueRepo;
  answers: ReviewAnswersRepo;
  deckStats: DeckStatsRepo;
  decks: DeckLookup;
  clock: Clock;
  newId: IdGenerator;
  random: RandomSource;
  /** The most cards one GET /cards/due answers. */
  maxQueue: number;
  /**
   * Answers per account (REVIEW_RATE_LIMIT_PER_DAY a day). No person answers 20,000 cards in a day; a script can
   * answer that many in seconds, and the day's statistics and new-card allowance read every review-log row of the
   * day: 5.5 million rows made GET /decks/stats take 1.7 s, all of it on the event loop that serves everyone.
   */
  limiter: RateLimiter;
}

/** What the learner typed before the card flipped, and the grader's verdict (both null without typing). */
export type TypedAnswerLog = Pick<ReviewLogRow, 'typed' | 'verdict'>;

/**
 * Two reviews of one card at the same instant on two connections (PostgreSQL): the loser re-reads and reviews the card
 * as the winner left it.
 */
const MAX_REVIEW_ATTEMPTS = 10;

/** The review queue, reviews (scheduler + review log) and deck statistics. */
export function createReviewService(deps: ReviewServiceDeps) {
  const { queueReads, answers, deckStats, decks, clock } = deps;

  return {
    /**
     * What to study now, in order (study-core/due-queue.ts); "today" is the learner's study day in `timeZone`. Each card says when it
     * would be due after a pass and after a fail, with the learner's `weights` (null: the defaults) and its deck's
     * desired retention.
     */
    async queue(
      userId: string,
      deckId: string | undefined,
      timeZone = 'UTC',
      weights: readonly number[] | null = null,
    ): Promise<DueCard[]> {
      const scope = await deckScope(decks, userId, deckId);
      const now = clock.now();
      const rows = await buildQueue(queueReads, scope, now, studyDayStart(now, timeZone), deps.maxQueue);
      const retentions = await queueReads.deckRetentions(userId, [...new Set(rows.map((row) => row.deck_id))]);
      const images = await queueReads.imagesOf(
        userId,
        rows.map((row) => row.id),
      );
      return rows.map((row) => {
        const deck = retentions.get(row.deck_id);
        const retention = deck?.retention ?? schedulerParameters.request_retention;
        const preview = previewNextDue(row, now, schedulerParametersFor(weights, retention));
        const next = capPreview(preview, deck?.examDate ?? null, timeZone, now);
        return {
          ...toCard(row),
          images: images.get(row.id) ?? [],
          next_due: { pass: isoTime(next.pass), fail: isoTime(next.fail) },
          last_review: lastReviewOf(row),
          memory: memoryOf(row),
        };
      });
    },

    /**
     * Records a pass or fail: the card's next FSRS state and a review-log row, together, and holds back the card's
     * siblings until the next study day in `timeZone`. `weights`: the learner's own FSRS parameters (null: the
     * defaults); the card's deck gives the desired retention, and its exam date caps the due date (study-core/exam-date.ts).
     */
    async review(
      userId: string,
      cardId: string,
      result: ReviewResult,
      weights: readonly number[] | null = null,
      timeZone = 'UTC',
      typed: TypedAnswerLog = { typed: null, verdict: null },
      reviewId?: string,
    ): Promise<AnswerResponse> {
      if (!isId(cardId)) throw errors.cardNotFound();
      // Every answer counts, refused ones too (as /create counts failed files): a refusal writes nothing, but it is
      // still a request someone scripted.
      const waitMs = await deps.limiter.hit(userId);
      if (waitMs !== null) throw rateLimited(waitMs);
      for (let attempt = 0; attempt < MAX_REVIEW_ATTEMPTS; attempt++) {
        // The decision the write kept (the group may be run again): its state previews the next answer.
        const decided: {
          last: { next: SchedulingState; now: number; parameters: FSRSParameters; examDate: string | null } | null;
        } = { last: null };
        const after = await answers.reviewCard(
          userId,
          cardId,
          (before) => {
            const now = clock.now();
            const retention = Number(before.desired_retention);
            const parameters = schedulerParametersFor(weights, retention);
            const outcome = review(before, result, now, deps.random, parameters);
            const next = capAtExam(outcome.next, before.exam_date, timeZone, now);
            decided.last = { next, now, parameters, examDate: before.exam_date };
            return {
              next,
              log: {
                id: reviewId ?? deps.newId(),
                user_id: userId,
                deck_id: before.deck_id,
                card_id: before.id,
                reviewed_at: now,
                rating: outcome.rating,
                state_before: before.state,
                state_after: next.state,
                due_before: before.due,
                due_after: next.due,
                stability: next.stability,
                difficulty: next.difficulty,
                scheduled_days: next.scheduled_days,
                elapsed_days: outcome.elapsedDays,
                ...typed,
              },
              now,
              buryUntil: nextStudyDayStart(now, timeZone),
            };
          },
          reviewId,
        );
        if (after === 'not_found') throw errors.cardNotFound();
        if (after === 'taken') throw errors.reviewIdTaken();
        if (typeof after === 'object' && 'logged' in after) {
          // This answer was recorded already (its reply was lost): the card as it is now, nothing applied twice.
          const card = after.logged;
          const now = clock.now();
          const parameters = schedulerParametersFor(weights, Number(card.desired_retention));
          const next = capPreview(previewNextDue(card, now, parameters), card.exam_date, timeZone, now);
          return {
            card: {
              ...toCard(card),
              next_due: { pass: isoTime(next.pass), fail: isoTime(next.fail) },
              last_review: lastReviewOf(card),
              memory: memoryOf(card),
            },
          };
        }
        if (after !== 'raced') {
          const kept = decided.last;
          if (kept === null) throw new Error('reviewCard wrote a card without a decision');
          const preview = previewNextDue(kept.next, kept.now, kept.parameters);
          const next = capPreview(preview, kept.examDate, timeZone, kept.now);
          return {
            card: {
              ...toCard(after),
              next_due: { pass: isoTime(next.pass), fail: isoTime(next.fail) },
              last_review: isoTime(kept.now),
              memory: memoryOf(kept.next),
            },
          };
        }
      }
      throw errors.reviewConflict();
    },

    /**
     * Takes back the card's latest answer: the card as it was before it; the answer no longer counts, and its
     * siblings come back unless another answer of the note stands today (in `timeZone`).
     */
    async undo(userId: string, cardId: string, timeZone = 'UTC'): Promise<{ card: Card }> {
      if (!isId(cardId)) throw errors.cardNotFound();
      const now = clock.now();
      const outcome = await answers.undoLatestReview(userId, cardId, now, studyDayStart(now, timeZone));
      if (outcome === 'card_not_found') throw errors.cardNotFound();
      if (outcome === 'nothing_to_undo') throw errors.nothingToUndo();
      if (outcome === 'conflict') throw errors.reviewConflict();
      return { card: toCard(outcome.card) };
    },

    async stats(userId: string, deckId: string | undefined, timeZone = 'UTC'): Promise<DeckStats> {
      const scope = await deckScope(decks, userId, deckId);
      const now = clock.now();
      const raw = await deckStats.stats(scope, now, studyDayStart(now, timeZone));
      return {
        total_cards: raw.total,
        new_cards: raw.fresh,
        learning_cards: raw.learning,
        due_cards: raw.due,
        cards_reviewed_today: raw.reviewedToday,
        next_due_time: raw.nextDue === null ? null : isoTime(raw.nextDue),
      };
    },
  };
}

export type ReviewService = ReturnType<typeof createReviewService>;
