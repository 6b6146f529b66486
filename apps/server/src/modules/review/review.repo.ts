import type { Insertable, Kysely } from 'kysely';
import type { Database, FsrsState, ReviewLogsTable } from '../../db/schema';
import { countReview } from '../stats/stats.repo';
import {
  type CardRow,
  CardState,
  type CardViewRow,
  cardViewColumns,
  fsrsMemoryOf,
  type SchedulingState,
} from '../study-core/card-state';
import { adjustDeckCounters, counterFor } from '../study-core/deck-counters';
import type { Scope } from '../study-core/deck-scope';
import { ownedCard, ownedDeck } from '../study-core/owned-rows';
import { byDueThenId } from './queue';

export interface RawStats {
  total: number;
  fresh: number;
  learning: number;
  due: number;
  reviewedToday: number;
  nextDue: number | null;
}

/** The card's scheduling fields before a review, kept with the review (review_logs.card_before) for undo. */
export interface CardSnapshot extends SchedulingState {
  first_reviewed_at: number | null;
}

export function snapshotOf(card: CardRow): CardSnapshot {
  return {
    state: card.state,
    due: card.due,
    ...fsrsMemoryOf(card),
    last_review: card.last_review,
    first_reviewed_at: card.first_reviewed_at,
  };
}

/** What an undo found: the restored card, no such card, nothing to undo, or a review that raced it. */
export type UndoOutcome = { card: CardViewRow } | 'card_not_found' | 'nothing_to_undo' | 'conflict';

class UndoRaced extends Error {}

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
    /**
     * Learning and relearning cards due by `now`, earliest first: one ordered index range per state (each read stops
     * at `limit` rows), merged here.
     */
    async dueLearning(scope: Scope, now: number, limit: number): Promise<CardViewRow[]> {
      const inState = (state: typeof CardState.Learning | typeof CardState.Relearning) =>
        cardsIn(scope)
          .select(cardViewColumns)
          .where('state', '=', state)
          .where('due', '<=', now)
          .orderBy('due')
          .orderBy('id')
          .limit(limit)
          .execute();
      const [learning, relearning] = await Promise.all([inState(CardState.Learning), inState(CardState.Relearning)]);
      return [...learning, ...relearning].sort(byDueThenId).slice(0, limit);
    },

    /** Long-term (review-state) cards due by `now`, earliest first. */
    dueReview(scope: Scope, now: number, limit: number): Promise<CardViewRow[]> {
      return cardsIn(scope)
        .select(cardViewColumns)
        .where('state', '=', CardState.Review)
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
        .where('state_before', '=', CardState.New)
        .where('undone_at', 'is', null);
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
                  .where('state', '=', CardState.New)
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

    /** The desired retention of the user's deck (0.9 when it is gone: the review then finds no card anyway). */
    async desiredRetention(userId: string, deckId: string): Promise<number> {
      const row = await ownedDeck(db, userId, deckId).select('desired_retention').executeTakeFirst();
      return row === undefined ? 0.9 : Number(row.desired_retention);
    },

    findCard(userId: string, cardId: string): Promise<CardRow | undefined> {
      return ownedCard(db, userId, cardId).selectAll().executeTakeFirst();
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
        const [from, to] = [counterFor(before.state), counterFor(next.state)];
        if (from !== to) {
          await adjustDeckCounters(trx, { userId: before.user_id, deckId: before.deck_id }, { [from]: -1, [to]: 1 });
        }
        await trx
          .insertInto('review_logs')
          .values({ ...log, card_before: JSON.stringify(snapshotOf(before)) })
          .execute();
        await countReview(
          trx,
          {
            userId: log.user_id,
            deckId: log.deck_id,
            reviewedAt: log.reviewed_at,
            rating: log.rating,
            stateBefore: log.state_before,
          },
          1,
        );
        return ownedCard(trx, before.user_id, before.id).select(cardViewColumns).executeTakeFirst();
      });
    },

    /**
     * Takes back the card's latest review, in one transaction: marks that review-log row undone (the log is never
     * rewritten otherwise) and puts the card back as it was before it, counters included. Only the latest review
     * can be undone, once: a second undo of the same card finds its latest review undone.
     */
    async undoLatestReview(userId: string, cardId: string, now: number): Promise<UndoOutcome> {
      try {
        return await db.transaction().execute(async (trx): Promise<UndoOutcome> => {
          const card = await ownedCard(trx, userId, cardId).selectAll().executeTakeFirst();
          if (!card) return 'card_not_found';
          const latest = await trx
            .selectFrom('review_logs')
            .select(['id', 'undone_at', 'card_before', 'deck_id', 'reviewed_at', 'rating', 'state_before'])
            .where('user_id', '=', userId)
            .where('card_id', '=', cardId)
            .orderBy('reviewed_at', 'desc')
            .orderBy('id', 'desc')
            .limit(1)
            .executeTakeFirst();
          if (!latest || latest.undone_at !== null || latest.card_before === null) return 'nothing_to_undo';
          const marked = await trx
            .updateTable('review_logs')
            .set({ undone_at: now })
            .where('id', '=', latest.id)
            .where('undone_at', 'is', null)
            .executeTakeFirst();
          if (marked.numUpdatedRows === 0n) return 'nothing_to_undo';
          // The statistics' rollup drops the undone answer too.
          await countReview(
            trx,
            {
              userId,
              deckId: latest.deck_id,
              reviewedAt: latest.reviewed_at,
              rating: latest.rating,
              stateBefore: latest.state_before,
            },
            -1,
          );
          const before = JSON.parse(latest.card_before) as CardSnapshot;
          const restored = await trx
            .updateTable('cards')
            .set({ ...before, updated_at: now })
            .where('user_id', '=', userId)
            .where('id', '=', cardId)
            .where('reps', '=', card.reps)
            .executeTakeFirst();
          // A review of this card committed between our read and write: roll the mark back too.
          if (restored.numUpdatedRows === 0n) throw new UndoRaced();
          const [from, to] = [counterFor(card.state), counterFor(before.state)];
          if (from !== to) {
            await adjustDeckCounters(trx, { userId, deckId: card.deck_id }, { [from]: -1, [to]: 1 });
          }
          const row = await ownedCard(trx, userId, cardId).select(cardViewColumns).executeTakeFirstOrThrow();
          return { card: row };
        });
      } catch (error) {
        if (error instanceof UndoRaced) return 'conflict';
        throw error;
      }
    },

    /**
     * The figures of DeckStats without a pass over the cards: the decks' card counters (one row per deck), the
     * index range of review cards due by now, one index seek per state for the earliest future due time, and the
     * review log's (user_id, reviewed_at) range for today.
     */
    async stats(scope: Scope, now: number, dayStart: number): Promise<RawStats> {
      let counters = db
        .selectFrom('decks')
        .select((eb) => [
          eb.fn.sum<number | string | null>('new_cards').as('fresh'),
          eb.fn.sum<number | string | null>('learning_cards').as('learning'),
          eb.fn.sum<number | string | null>('review_cards').as('review'),
        ])
        .where('user_id', '=', scope.userId);
      if (scope.deckId !== null) counters = counters.where('id', '=', scope.deckId);
      let reviewed = db
        .selectFrom('review_logs')
        .select((eb) => eb.fn.count<number | string>('card_id').distinct().as('n'))
        .where('user_id', '=', scope.userId)
        .where('reviewed_at', '>=', dayStart)
        .where('undone_at', 'is', null);
      if (scope.deckId !== null) reviewed = reviewed.where('deck_id', '=', scope.deckId);
      const nextDue = (state: Exclude<FsrsState, typeof CardState.New>) =>
        cardsIn(scope)
          .select('due')
          .where('state', '=', state)
          .where('due', '>', now)
          .orderBy('due')
          .limit(1)
          .executeTakeFirst();

      const [totals, dueNow, reviewedToday, ...nexts] = await Promise.all([
        counters.executeTakeFirst(),
        cardsIn(scope)
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('state', '=', CardState.Review)
          .where('due', '<=', now)
          .executeTakeFirst(),
        reviewed.executeTakeFirst(),
        nextDue(CardState.Learning),
        nextDue(CardState.Review),
        nextDue(CardState.Relearning),
      ]);
      const fresh = Number(totals?.fresh ?? 0);
      const learning = Number(totals?.learning ?? 0);
      const review = Number(totals?.review ?? 0);
      // A new card's due date is its creation time, not an appointment: only states 1 to 3 have a next due time.
      const futures = nexts.filter((row) => row !== undefined).map((row) => Number(row.due));
      return {
        total: fresh + learning + review,
        fresh,
        learning,
        due: Number(dueNow?.n ?? 0),
        reviewedToday: Number(reviewedToday?.n ?? 0),
        nextDue: futures.length > 0 ? Math.min(...futures) : null,
      };
    },
  };
}

export type ReviewRepo = ReturnType<typeof createReviewRepo>;
