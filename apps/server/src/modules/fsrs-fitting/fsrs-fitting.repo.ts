import type { Kysely } from 'kysely';
import { rowLimit } from '../../db/row-limit';
import type { Database } from '../../db/schema';

export interface StoredFit {
  parameters: number[];
  optimizedAt: number;
  reviewsUsed: number;
  logLossDefault: number | null;
  logLossPersonal: number | null;
}

/** SQL for personal scheduling: the fit on the user row, and the user's review log read for fitting. */
export function createFsrsFittingRepo(db: Kysely<Database>) {
  return {
    /** Reviews since `since` (all of them for null), from the (user_id, reviewed_at) index. */
    async countReviews(userId: string, since: number | null): Promise<number> {
      let query = db
        .selectFrom('review_logs')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .where('undone_at', 'is', null);
      if (since !== null) query = query.where('reviewed_at', '>', since);
      const row = await query.executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /** When the `limit`-th most recent review happened (null when there are fewer). */
    async nthLatestReviewAt(userId: string, limit: number): Promise<number | null> {
      const row = await db
        .selectFrom('review_logs')
        .select('reviewed_at')
        .where('user_id', '=', userId)
        .where('undone_at', 'is', null)
        .orderBy('reviewed_at', 'desc')
        .offset(limit - 1)
        .limit(rowLimit(1))
        .executeTakeFirst();
      return row === undefined ? null : Number(row.reviewed_at);
    },

    /** The user's reviews from `since` on, by card then time (the (user_id, card_id, reviewed_at) index). */
    reviewsByCard(userId: string, since: number | null) {
      let query = db
        .selectFrom('review_logs')
        .select(['card_id', 'reviewed_at', 'rating'])
        .where('user_id', '=', userId)
        .where('undone_at', 'is', null);
      if (since !== null) query = query.where('reviewed_at', '>=', since);
      return query.orderBy('card_id').orderBy('reviewed_at').execute();
    },

    async saveFit(userId: string, fit: StoredFit, now: number): Promise<void> {
      await db
        .updateTable('users')
        .set({
          fsrs_parameters: JSON.stringify(fit.parameters),
          fsrs_optimized_at: fit.optimizedAt,
          fsrs_reviews_used: fit.reviewsUsed,
          fsrs_log_loss_default: fit.logLossDefault,
          fsrs_log_loss_personal: fit.logLossPersonal,
          updated_at: now,
        })
        .where('id', '=', userId)
        .execute();
    },

    async clearFit(userId: string, now: number): Promise<void> {
      await db
        .updateTable('users')
        .set({
          fsrs_parameters: null,
          fsrs_optimized_at: null,
          fsrs_reviews_used: 0,
          fsrs_log_loss_default: null,
          fsrs_log_loss_personal: null,
          updated_at: now,
        })
        .where('id', '=', userId)
        .execute();
    },
  };
}

export type FsrsFittingRepo = ReturnType<typeof createFsrsFittingRepo>;
