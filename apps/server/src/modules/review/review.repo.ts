import type { Kysely } from 'kysely';
import { inGroupCommit } from '../../db/group-commit';
import { type ParamOf, preparedFirst, preparedQuery } from '../../db/prepared-query';
import { rowLimit } from '../../db/row-limit';
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
import { ownedCard } from '../study-core/owned-rows';
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

/** The columns of a queued card: what the API shows, and the FSRS state its answer previews are computed from. */
export const queueColumns = [
  ...cardViewColumns,
  'stability',
  'difficulty',
  'scheduled_days',
  'learning_steps',
  'last_review',
] as const satisfies readonly (keyof CardRow)[];

/** A card of the review queue: its API view and its scheduling state. */
export type QueueRow = Pick<CardRow, (typeof queueColumns)[number]>;

/** SQLite compounds at most 500 SELECTs in one statement; stay well below. */
const UNION_CHUNK = 100;

interface ScopeParams extends Record<string, unknown> {
  userId: string;
  deckId: string | null;
}

/** Cards of the user, of one deck when `oneDeck` (the deckId parameter). */
function cardsInScope(db: Kysely<Database>, param: ParamOf<ScopeParams>, oneDeck: boolean) {
  const query = db.selectFrom('cards').where('user_id', '=', param('userId'));
  return oneDeck ? query.where('deck_id', '=', param('deckId') as string) : query;
}

interface StatsParams extends ScopeParams {
  now: number;
  dayStart: number;
}

/** DeckStats' figures for every deck of the user (`oneDeck` false) or one of them, as one row. */
function statsQuery(oneDeck: boolean) {
  return preparedFirst<StatsParams, StatsRow>((db, param) => {
    const cards = () => cardsInScope(db, param, oneDeck);
    const nextDue = (state: Exclude<FsrsState, typeof CardState.New>) =>
      cards()
        .select('due')
        .where('state', '=', state)
        .where('due', '>', param('now'))
        .orderBy('due')
        .limit(rowLimit(1));
    let reviewed = db
      .selectFrom('review_logs')
      .select((eb) => eb.fn.count<number | string>('card_id').distinct().as('n'))
      .where('user_id', '=', param('userId'))
      .where('reviewed_at', '>=', param('dayStart'))
      .where('undone_at', 'is', null);
    if (oneDeck) reviewed = reviewed.where('deck_id', '=', param('deckId') as string);
    const decks = db.selectFrom('decks').where('user_id', '=', param('userId'));
    return (oneDeck ? decks.where('id', '=', param('deckId') as string) : decks).select((eb) => [
      eb.fn.sum<number | string | null>('new_cards').as('fresh'),
      eb.fn.sum<number | string | null>('learning_cards').as('learning'),
      eb.fn.sum<number | string | null>('review_cards').as('review'),
      cards()
        .select((inner) => inner.fn.countAll<number | string>().as('n'))
        .where('state', '=', CardState.Review)
        .where('due', '<=', param('now'))
        .as('due_now'),
      reviewed.as('reviewed_today'),
      nextDue(CardState.Learning).as('next_learning'),
      nextDue(CardState.Review).as('next_review'),
      nextDue(CardState.Relearning).as('next_relearning'),
    ]);
  });
}

interface StatsRow {
  fresh: number | string | null;
  learning: number | string | null;
  review: number | string | null;
  due_now: number | string | null;
  reviewed_today: number | string | null;
  next_learning: number | string | null;
  next_review: number | string | null;
  next_relearning: number | string | null;
}

const statsOfAllDecks = statsQuery(false);
const statsOfOneDeck = statsQuery(true);

/** A deck's first `limit` new cards, oldest first. */
function newCardsOf(db: Kysely<Database>, userId: string, deckId: string, limit: number) {
  return db
    .selectFrom('cards')
    .select(queueColumns)
    .where('user_id', '=', userId)
    .where('deck_id', '=', deckId)
    .where('state', '=', CardState.New)
    .orderBy('due')
    .orderBy('id')
    .limit(rowLimit(limit));
}

const newCardsOfOneDeck = preparedQuery<{ userId: string; deckId: string; limit: number }, QueueRow>((db, param) =>
  newCardsOf(db, param('userId'), param('deckId'), param('limit')),
);

/** Due learning, relearning and review cards (each at most `limit`, earliest first), as one union. */
function dueQuery(oneDeck: boolean) {
  return preparedQuery<ScopeParams & { now: number; limit: number }, QueueRow>((db, param) => {
    const inState = (state: Exclude<FsrsState, typeof CardState.New>, alias: string) =>
      db
        .selectFrom(
          cardsInScope(db, param, oneDeck)
            .select(queueColumns)
            .where('state', '=', state)
            .where('due', '<=', param('now'))
            .orderBy('due')
            .orderBy('id')
            .limit(rowLimit(param('limit')))
            .as(alias),
        )
        .selectAll();
    return inState(CardState.Learning, 'learning')
      .unionAll(inState(CardState.Relearning, 'relearning'))
      .unionAll(inState(CardState.Review, 'review'));
  });
}

const dueInAllDecks = dueQuery(false);
const dueInOneDeck = dueQuery(true);

/** A deck's daily new-card limit and what is left of it today (newCardAllowance). */
export interface NewCardAllowance {
  deckId: string;
  dailyLimit: number;
  introduced: number;
}

function allowanceQuery(oneDeck: boolean) {
  return preparedQuery<
    ScopeParams & { since: number },
    { id: string; daily_new_card_limit: number; introduced: number | string | null }
  >((db, param) => {
    let introduced = db
      .selectFrom('review_logs')
      .select((eb) => ['deck_id', eb.fn.count<number | string>('card_id').distinct().as('n')])
      .where('user_id', '=', param('userId'))
      .where('reviewed_at', '>=', param('since'))
      .where('state_before', '=', CardState.New)
      .where('undone_at', 'is', null);
    if (oneDeck) introduced = introduced.where('deck_id', '=', param('deckId') as string);
    let decks = db
      .selectFrom('decks')
      .leftJoin(introduced.groupBy('deck_id').as('introduced'), 'introduced.deck_id', 'decks.id')
      .select(['decks.id', 'decks.daily_new_card_limit', 'introduced.n as introduced'])
      .where('decks.user_id', '=', param('userId'));
    if (oneDeck) decks = decks.where('decks.id', '=', param('deckId') as string);
    return decks.orderBy('decks.created_at').orderBy('decks.id');
  });
}

const allowanceOfAllDecks = allowanceQuery(false);
const allowanceOfOneDeck = allowanceQuery(true);

/** A card row with its deck's desired retention (a number; a numeric string on PostgreSQL). */
export type CardToReview = CardRow & { desired_retention: number | string };

const cardToReview = preparedFirst<{ userId: string; cardId: string }, CardToReview>((db, param) =>
  db
    .selectFrom('cards')
    .innerJoin('decks', (join) =>
      join.onRef('decks.id', '=', 'cards.deck_id').onRef('decks.user_id', '=', 'cards.user_id'),
    )
    .selectAll('cards')
    .select('decks.desired_retention')
    .where('cards.user_id', '=', param('userId'))
    .where('cards.id', '=', param('cardId')),
);

/** A review-log row as a review writes it (not undone; its card snapshot is added by reviewCard). */
export type ReviewLogRow = Omit<ReviewLogsTable, 'undone_at' | 'card_before'>;

/** What a review decided for the card it read: its next state and review-log row, at `now`. */
export interface ReviewDecision {
  next: SchedulingState;
  log: ReviewLogRow;
  now: number;
}

type ReviewedCardParams = SchedulingState & {
  first_reviewed_at: number;
  updated_at: number;
  userId: string;
  cardId: string;
  repsBefore: number;
};

/** The card's new scheduling state, if its reps are still `repsBefore`; the card as updated. */
const reviewedCard = preparedFirst<ReviewedCardParams, CardViewRow>((db, param) =>
  db
    .updateTable('cards')
    .set({
      state: param('state'),
      due: param('due'),
      stability: param('stability'),
      difficulty: param('difficulty'),
      scheduled_days: param('scheduled_days'),
      learning_steps: param('learning_steps'),
      reps: param('reps'),
      lapses: param('lapses'),
      last_review: param('last_review'),
      first_reviewed_at: param('first_reviewed_at'),
      updated_at: param('updated_at'),
    })
    .where('user_id', '=', param('userId'))
    .where('id', '=', param('cardId'))
    .where('reps', '=', param('repsBefore'))
    .returning(cardViewColumns),
);

const insertReviewLog = preparedQuery<ReviewLogRow & { card_before: string }, never>((db, param) =>
  db.insertInto('review_logs').values({
    id: param('id'),
    user_id: param('user_id'),
    deck_id: param('deck_id'),
    card_id: param('card_id'),
    reviewed_at: param('reviewed_at'),
    rating: param('rating'),
    state_before: param('state_before'),
    state_after: param('state_after'),
    due_before: param('due_before'),
    due_after: param('due_after'),
    stability: param('stability'),
    difficulty: param('difficulty'),
    scheduled_days: param('scheduled_days'),
    elapsed_days: param('elapsed_days'),
    card_before: param('card_before'),
    typed: param('typed'),
    verdict: param('verdict'),
  }),
);

/**
 * SQL for the review queue, reviews and statistics. Every query is scoped by user_id (and the deck, when given),
 * and each one is answered from an index on (user_id, [deck_id,] state, due) or (user_id, reviewed_at).
 */
export function createReviewRepo(db: Kysely<Database>) {
  return {
    /**
     * Cards due by `now`, in one statement: learning and relearning cards (merged, earliest first, at most `limit`)
     * and long-term review cards (earliest first, at most `limit`). Each state is its own ordered index range that
     * stops at `limit` rows.
     */
    async dueCards(scope: Scope, now: number, limit: number): Promise<{ learning: QueueRow[]; review: QueueRow[] }> {
      const query = scope.deckId === null ? dueInAllDecks : dueInOneDeck;
      const rows = await query(db, { userId: scope.userId, deckId: scope.deckId, now, limit });
      const learning = rows
        .filter((row) => row.state !== CardState.Review)
        .sort(byDueThenId)
        .slice(0, limit);
      return { learning, review: rows.filter((row) => row.state === CardState.Review).sort(byDueThenId) };
    },

    /**
     * The user's decks in scope (oldest first) with their daily new-card limits and how many new cards each introduced
     * since `since` (cards whose first review, not undone, is in the review log since then), in one statement.
     */
    async newCardAllowance(scope: Scope, since: number): Promise<NewCardAllowance[]> {
      const query = scope.deckId === null ? allowanceOfAllDecks : allowanceOfOneDeck;
      const rows = await query(db, { userId: scope.userId, deckId: scope.deckId, since });
      return rows.map((row) => ({
        deckId: row.id,
        dailyLimit: row.daily_new_card_limit,
        introduced: Number(row.introduced ?? 0),
      }));
    },

    /** The first `take` new cards of each deck (oldest first), in one round trip per 100 decks. */
    async newCards(userId: string, take: { deckId: string; limit: number }[]): Promise<QueueRow[]> {
      const [only] = take;
      // One deck (a study session of one deck): the same statement each time, prepared once.
      if (take.length === 1 && only) return newCardsOfOneDeck(db, { userId, deckId: only.deckId, limit: only.limit });
      const rows: QueueRow[] = [];
      for (let start = 0; start < take.length; start += UNION_CHUNK) {
        const parts = take
          .slice(start, start + UNION_CHUNK)
          .map(({ deckId, limit }, index) =>
            db.selectFrom(newCardsOf(db, userId, deckId, limit).as(`d${index}`)).selectAll(),
          );
        const [first, ...rest] = parts;
        if (!first) continue;
        const query = rest.reduce((union, part) => union.unionAll(part), first);
        rows.push(...(await query.execute()));
      }
      return rows;
    },

    /** The desired retention of each of the user's decks among `deckIds` (a numeric string on PostgreSQL). */
    async deckRetentions(userId: string, deckIds: readonly string[]): Promise<Map<string, number>> {
      const retentions = new Map<string, number>();
      for (let start = 0; start < deckIds.length; start += UNION_CHUNK) {
        const rows = await db
          .selectFrom('decks')
          .select(['id', 'desired_retention'])
          .where('user_id', '=', userId)
          .where('id', 'in', deckIds.slice(start, start + UNION_CHUNK))
          .execute();
        for (const row of rows) retentions.set(row.id, Number(row.desired_retention));
      }
      return retentions;
    },

    /**
     * Reviews the user's card in one transaction: reads it (with its deck's desired retention), asks `decide` for its
     * next state and review-log row, and writes both if the card is still as read (same reps). On SQLite the
     * transaction is committed with the other reviews that arrived with it (db/group-commit.ts), each reading the card
     * as the one before left it. Answers the card as the update left it; `not_found` for no such card; `raced` when
     * another connection's review changed the card between the read and the write (PostgreSQL) and nothing was
     * written. `decide` may be called again if the group is run again.
     */
    reviewCard(
      userId: string,
      cardId: string,
      decide: (before: CardToReview) => ReviewDecision,
    ): Promise<CardViewRow | 'not_found' | 'raced'> {
      return inGroupCommit(db, async (trx) => {
        const before = await cardToReview(trx, { userId, cardId });
        if (!before) return 'not_found';
        const { next, log, now } = decide(before);
        const after = await reviewedCard(trx, {
          ...next,
          first_reviewed_at: before.first_reviewed_at ?? now,
          updated_at: now,
          userId: before.user_id,
          cardId: before.id,
          repsBefore: before.reps,
        });
        if (!after) return 'raced';
        const [from, to] = [counterFor(before.state), counterFor(next.state)];
        if (from !== to) {
          await adjustDeckCounters(trx, { userId: before.user_id, deckId: before.deck_id }, { [from]: -1, [to]: 1 });
        }
        await insertReviewLog(trx, { ...log, card_before: JSON.stringify(snapshotOf(before)) });
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
        return after;
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
            .limit(rowLimit(1))
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
     * The figures of DeckStats without a pass over the cards, in one statement (statsQuery): the decks' card
     * counters, the index range of review cards due by now, one index seek per state for the earliest future due
     * time, and the review log's (user_id, reviewed_at) range for today.
     */
    async stats(scope: Scope, now: number, dayStart: number): Promise<RawStats> {
      const query = scope.deckId === null ? statsOfAllDecks : statsOfOneDeck;
      const row = await query(db, { userId: scope.userId, deckId: scope.deckId, now, dayStart });
      const fresh = Number(row?.fresh ?? 0);
      const learning = Number(row?.learning ?? 0);
      const review = Number(row?.review ?? 0);
      // A new card's due date is its creation time, not an appointment: only states 1 to 3 have a next due time.
      const futures = [row?.next_learning, row?.next_review, row?.next_relearning]
        .filter((due) => due !== null && due !== undefined)
        .map(Number);
      return {
        total: fresh + learning + review,
        fresh,
        learning,
        due: Number(row?.due_now ?? 0),
        reviewedToday: Number(row?.reviewed_today ?? 0),
        nextDue: futures.length > 0 ? Math.min(...futures) : null,
      };
    },
  };
}

export type ReviewRepo = ReturnType<typeof createReviewRepo>;
