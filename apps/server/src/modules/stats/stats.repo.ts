import { DAY_MS } from '@flashcards/shared/time';
import { type Expression, type Kysely, type RawBuilder, type Selectable, sql, type Transaction } from 'kysely';
import { preparedQuery } from '../../db/prepared-query';
import type { Database, ReviewStatsTable } from '../../db/schema';
import type { Scope } from '../study-core/deck-scope';
import { BUCKET_MS, type OffsetSegment, ROLLOVER_HOUR } from '../study-core/study-day';

const BUCKETS_PER_DAY = DAY_MS / BUCKET_MS;
const ROLLOVER_BUCKETS = (ROLLOVER_HOUR * 3_600_000) / BUCKET_MS;

/** One review's share of the review_stats rollup. */
export interface ReviewCount {
  userId: string;
  deckId: string;
  reviewedAt: number;
  rating: number;
  stateBefore: number;
}

/**
 * Adds one review to (sign 1) or takes it out of (sign -1, for an undone review) the review_stats rollup, inside
 * the caller's transaction, so the statistics move with the review log.
 */
export async function countReview(trx: Transaction<Database> | Kysely<Database>, review: ReviewCount, sign: 1 | -1) {
  const passed = review.rating === 3 ? sign : 0;
  const mature = review.stateBefore === 2 ? sign : 0;
  const row = {
    user_id: review.userId,
    deck_id: review.deckId,
    bucket: Math.floor(review.reviewedAt / BUCKET_MS),
    reviews: sign,
    passed,
    new_cards: review.stateBefore === 0 ? sign : 0,
    mature_reviews: mature,
    mature_passed: mature !== 0 ? passed : 0,
  };
  await addToReviewStats(trx, row);
}

type ReviewStatsRow = Selectable<ReviewStatsTable>;

/** Adds a row of review counts to its rollup bucket (inserted at those counts when the bucket is new). */
const addToReviewStats = preparedQuery<ReviewStatsRow, never>((db, param) =>
  db
    .insertInto('review_stats')
    .values({
      user_id: param('user_id'),
      deck_id: param('deck_id'),
      bucket: param('bucket'),
      reviews: param('reviews'),
      passed: param('passed'),
      new_cards: param('new_cards'),
      mature_reviews: param('mature_reviews'),
      mature_passed: param('mature_passed'),
    })
    .onConflict((conflict) =>
      conflict.columns(['user_id', 'deck_id', 'bucket']).doUpdateSet((eb) => ({
        reviews: eb('review_stats.reviews', '+', eb.ref('excluded.reviews')),
        passed: eb('review_stats.passed', '+', eb.ref('excluded.passed')),
        new_cards: eb('review_stats.new_cards', '+', eb.ref('excluded.new_cards')),
        mature_reviews: eb('review_stats.mature_reviews', '+', eb.ref('excluded.mature_reviews')),
        mature_passed: eb('review_stats.mature_passed', '+', eb.ref('excluded.mature_passed')),
      })),
    ),
);

/**
 * The study day number (days since 1970-01-01 of local time − 4 h) of a column of epoch quarter hours or epoch
 * milliseconds, with the zone's offset taken from the segment the value falls in. Integer literals only, so SQLite and
 * PostgreSQL both divide as integers.
 */
function dayNumber(column: Expression<number>, segments: OffsetSegment[], unit: 'bucket' | 'ms'): RawBuilder<number> {
  const expression = (offsetMs: number) =>
    unit === 'bucket'
      ? sql`((${column} + ${sql.lit(offsetMs / BUCKET_MS - ROLLOVER_BUCKETS)}) / ${sql.lit(BUCKETS_PER_DAY)})`
      : sql`((${column} + ${sql.lit(offsetMs - ROLLOVER_HOUR * 3_600_000)}) / ${sql.lit(DAY_MS)})`;
  const [first, ...rest] = segments;
  if (!first) throw new Error('no offset segments');
  if (rest.length === 0) return sql<number>`${expression(first.offsetMs)}`;
  // Segment i applies before segment i+1 starts.
  const whens = segments.slice(0, -1).map((segment, index) => {
    const next = segments[index + 1] as OffsetSegment;
    const bound = unit === 'bucket' ? next.from / BUCKET_MS : next.from;
    return sql`when ${column} < ${sql.lit(bound)} then ${expression(segment.offsetMs)}`;
  });
  const last = segments[segments.length - 1] as OffsetSegment;
  return sql<number>`(case ${sql.join(whens, sql` `)} else ${expression(last.offsetMs)} end)`;
}

export interface DayTotals {
  day: number;
  reviews: number;
  passed: number;
  newCards: number;
  matureReviews: number;
  maturePassed: number;
}

/** SQL for the statistics: index ranges of review_stats (history) and of cards by (user, [deck,] state, due). */
export function createStatsRepo(db: Kysely<Database>) {
  return {
    /** Review totals per study day over [from, to) (epoch ms on quarter-hour boundaries), days with reviews only. */
    async historyByDay(scope: Scope, from: number, to: number, segments: OffsetSegment[]): Promise<DayTotals[]> {
      let query = db
        .selectFrom('review_stats')
        .select((eb) => [
          dayNumber(eb.ref('bucket'), segments, 'bucket').as('day'),
          eb.fn.sum<number | string>('reviews').as('reviews'),
          eb.fn.sum<number | string>('passed').as('passed'),
          eb.fn.sum<number | string>('new_cards').as('new_cards'),
          eb.fn.sum<number | string>('mature_reviews').as('mature_reviews'),
          eb.fn.sum<number | string>('mature_passed').as('mature_passed'),
        ])
        .where('user_id', '=', scope.userId)
        .where('bucket', '>=', Math.floor(from / BUCKET_MS))
        .where('bucket', '<', Math.ceil(to / BUCKET_MS));
      if (scope.deckId !== null) query = query.where('deck_id', '=', scope.deckId);
      const rows = await query.groupBy('day').execute();
      return rows
        .map((row) => ({
          day: Number(row.day),
          reviews: Number(row.reviews),
          passed: Number(row.passed),
          newCards: Number(row.new_cards),
          matureReviews: Number(row.mature_reviews),
          maturePassed: Number(row.mature_passed),
        }))
        .filter((row) => row.reviews > 0);
    },

    /** Learning, relearning and long-term cards due before `before` (overdue included). */
    async dueBefore(scope: Scope, before: number): Promise<number> {
      let query = db
        .selectFrom('cards')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', scope.userId)
        .where('state', 'in', [1, 2, 3])
        .where('due', '<', before);
      if (scope.deckId !== null) query = query.where('deck_id', '=', scope.deckId);
      const row = await query.executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /** Cards (states 1 to 3) falling due per study day in [from, to). */
    async dueByDay(
      scope: Scope,
      from: number,
      to: number,
      segments: OffsetSegment[],
    ): Promise<{ day: number; due: number }[]> {
      let query = db
        .selectFrom('cards')
        .select((eb) => [dayNumber(eb.ref('due'), segments, 'ms').as('day'), eb.fn.countAll<number | string>().as('n')])
        .where('user_id', '=', scope.userId)
        .where('state', 'in', [1, 2, 3])
        .where('due', '>=', from)
        .where('due', '<', to);
      if (scope.deckId !== null) query = query.where('deck_id', '=', scope.deckId);
      const rows = await query.groupBy('day').execute();
      return rows.map((row) => ({ day: Number(row.day), due: Number(row.n) }));
    },
  };
}

export type StatsRepo = ReturnType<typeof createStatsRepo>;
