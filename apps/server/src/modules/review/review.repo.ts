import type { Insertable, Kysely } from 'kysely';
import type { Database, ReviewLogsTable } from '../../db/schema';
import { type CardRow, type CardViewRow, cardViewColumns } from '../cards/cards.repo';
import type { SchedulingState } from './scheduler';

/** Where to look: every deck of the user, or one of them. */
export interface Scope {
  userId: string;
  deckId: string | null;
}

export interface RawStats {
  total: number;
  fresh: number;
  learning: number;
  due: number;
  reviewedToday: number;
  nextDue: number | null;
}

/** SQLite compounds at most 500 SELECTs in one statement; stay well below. */
const UNION_CHUNK = 100;

/**
 * SQL for the review queue, reviews and statistics. Every query is scoped by user_id (and the deck, when given),
 * and each one is answered from an index on (user_id, [deck_id,] state, due) or (user_id, reviewed_at).
 */
export function createReviewRepo(db: Kysely<Database>) {
  const cardsIn = (scope: Scope) => {
    let query = db.selectFrom('cards').where('user_id', '=', scope.userId);
    if (scope.deckId !== null) query = query.where('deck_id', '=', scope.deckId);
    return query;
  };

  return {
    /** Learning and relearning cards due by `now`, earliest first. */
    dueLearning(scope: Scope, now: number, limit: number): Promise<CardViewRow[]> {
      return cardsIn(scope)
        .select(cardViewColumns)
        .where('state', 'in', [1, 3])
        .where('due', '<=', now)
        .orderBy('due')
        .orderBy('id')
        .limit(limit)
        .execute();
    },

    /** Long-term (review-state) cards due by `now`, earliest first. */
    dueReview(scope: Scope, now: number, limit: number): Promise<CardViewRow[]> {
      return cardsIn(scope)
        .select(cardViewColumns)
        .where('state', '=', 2)
        .where('due', '<=', now)
        .orderBy('due')
        .orderBy('id')
        .limit(limit)
        .execute();
    },

    /** The user's decks in scope with their daily new-card limits. */
    deckLimits(scope: Scope): Promise<{ id: string; daily_new_card_limit: number }[]> {
      let query = db.selectFrom('decks').select(['id', 'daily_new_card_limit']).where('user_id', '=', scope.userId);
      if (scope.deckId !== null) query = query.where('id', '=', scope.deckId);
      return query.orderBy('created_at').orderBy('id').execute();
    },

    /** Per deck: how many new cards got their first review since `since` (read from today's review log). */
    async introducedSince(scope: Scope, since: number): Promise<Map<string, number>> {
      let query = db
        .selectFrom('review_logs')
        .select((eb) => ['deck_id', eb.fn.count<number | string>('card_id').distinct().as('n')])
        .where('user_id', '=', scope.userId)
        .where('reviewed_at', '>=', since)
        .where('state_before', '=', 0);
      if (scope.deckId !== null) query = query.where('deck_id', '=', scope.deckId);
      const rows = await query.groupBy('deck_id').execute();
      return new Map(rows.map((row) => [row.deck_id, Number(row.n)]));
    },

    /** The first `take` new cards of each deck (oldest first), in one round trip per 100 decks. */
    async newCards(userId: string, take: { deckId: string; limit: number }[]): Promise<CardViewRow[]> {
      const rows: CardViewRow[] = [];
      for (let start = 0; start < take.length; start += UNION_CHUNK) {
        const parts = take
          .slice(start, start + UNION_CHUNK)
          .map(({ deckId, limit }, index) =>
            db
              .selectFrom(
                db
                  .selectFrom('cards')
                  .select(cardViewColumns)
                  .where('user_id', '=', userId)
                  .where('deck_id', '=', deckId)
                  .where('state', '=', 0)
                  .orderBy('due')
                  .orderBy('id')
                  .limit(limit)
                  .as(`d${index}`),
              )
              .selectAll(),
          );
        const [first, ...rest] = parts;
        if (!first) continue;
        const query = rest.reduce((union, part) => union.unionAll(part), first);
        rows.push(...(await query.execute()));
      }
      return rows;
    },

    findCard(userId: string, cardId: string): Promise<CardRow | undefined> {
      return db
        .selectFrom('cards')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', '=', cardId)
        .executeTakeFirst();
    },

    /**
     * Writes a review: the card's new state and one review-log row, in one transaction. The update applies only if
     * the card is still as it was read (same reps); false means another review won the race and nothing was written.
     */
    async applyReview(
      before: CardRow,
      next: SchedulingState,
      log: Insertable<ReviewLogsTable>,
      now: number,
    ): Promise<CardViewRow | undefined> {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('cards')
          .set({
            ...next,
            first_reviewed_at: before.first_reviewed_at ?? now,
            updated_at: now,
          })
          .where('user_id', '=', before.user_id)
          .where('id', '=', before.id)
          .where('reps', '=', before.reps)
          .executeTakeFirst();
        if (result.numUpdatedRows === 0n) return undefined;
        await trx.insertInto('review_logs').values(log).execute();
        return trx
          .selectFrom('cards')
          .select(cardViewColumns)
          .where('user_id', '=', before.user_id)
          .where('id', '=', before.id)
          .executeTakeFirst();
      });
    },

    /** Counts for DeckStats in one round trip; each figure comes from an index range. */
    async stats(scope: Scope, now: number, dayStart: number): Promise<RawStats> {
      const count = (build: (query: ReturnType<typeof cardsIn>) => ReturnType<typeof cardsIn>) =>
        build(cardsIn(scope)).select((eb) => eb.fn.countAll<number | string>().as('n'));
      const nextDue = (state: 1 | 2 | 3) =>
        cardsIn(scope)
          .select((eb) => eb.fn.min<number | string | null>('due').as('d'))
          .where('state', '=', state)
          .where('due', '>', now);
      let reviewed = db
        .selectFrom('review_logs')
        .select((eb) => eb.fn.count<number | string>('card_id').distinct().as('n'))
        .where('user_id', '=', scope.userId)
        .where('reviewed_at', '>=', dayStart);
      if (scope.deckId !== null) reviewed = reviewed.where('deck_id', '=', scope.deckId);

      const row = await db
        .selectNoFrom([
          count((q) => q).as('total'),
          count((q) => q.where('state', '=', 0)).as('fresh'),
          count((q) => q.where('state', 'in', [1, 3])).as('learning'),
          count((q) => q.where('state', '=', 2).where('due', '<=', now)).as('due'),
          reviewed.as('reviewed_today'),
          nextDue(1).as('next_learning'),
          nextDue(2).as('next_review'),
          nextDue(3).as('next_relearning'),
        ])
        .executeTakeFirstOrThrow();
      const nexts = [row.next_learning, row.next_review, row.next_relearning]
        .filter((value) => value !== null && value !== undefined)
        .map(Number);
      return {
        total: Number(row.total ?? 0),
        fresh: Number(row.fresh ?? 0),
        learning: Number(row.learning ?? 0),
        due: Number(row.due ?? 0),
        reviewedToday: Number(row.reviewed_today ?? 0),
        nextDue: nexts.length > 0 ? Math.min(...nexts) : null,
      };
    },
  };
}

export type ReviewRepo = ReturnType<typeof createReviewRepo>;
