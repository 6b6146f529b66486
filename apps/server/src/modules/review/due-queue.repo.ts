import type { Kysely } from 'kysely';
import { forEachBatch } from '../../db/batches';
import { preparedQuery } from '../../db/prepared-query';
import { rowLimit } from '../../db/row-limit';
import type { Database, FsrsState } from '../../db/schema';
import { cardImages } from '../study-core/card-images';
import { CardState } from '../study-core/card-state';
import type { NewCardAllowance } from '../study-core/daily-limit';
import type { Scope } from '../study-core/deck-scope';
import { byDueThenId, type QueueRow, queueColumns } from '../study-core/due-queue';
import { cardsInScope, type ScopeParams } from '../study-core/owned-rows';
import { notBuried } from '../study-core/siblings';

/** SQLite compounds at most 500 SELECTs in one statement; stay well below. */
const UNION_CHUNK = 100;

/** A deck's first `limit` new cards not held back at `now` (siblings.ts), oldest first. */
function newCardsOf(db: Kysely<Database>, userId: string, deckId: string, limit: number, now: number) {
  return db
    .selectFrom('cards')
    .select(queueColumns)
    .where('user_id', '=', userId)
    .where('deck_id', '=', deckId)
    .where('state', '=', CardState.New)
    .where(notBuried(now))
    .orderBy('due')
    .orderBy('id')
    .limit(rowLimit(limit));
}

const newCardsOfOneDeck = preparedQuery<{ userId: string; deckId: string; limit: number; now: number }, QueueRow>(
  (db, param) => newCardsOf(db, param('userId'), param('deckId'), param('limit'), param('now')),
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
            .where(notBuried(param('now')))
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

/**
 * SQL for the review queue (study-core/due-queue.ts). Every query is scoped by user_id (and the deck, when given), and
 * each one is answered from an index on (user_id, [deck_id,] state, due) or (user_id, reviewed_at).
 */
export function createDueQueueRepo(db: Kysely<Database>) {
  return {
    /** The `images` of these cards of the user (the queue shows them on the answer side). */
    imagesOf: (userId: string, cardIds: readonly string[]) => cardImages(db, userId, cardIds),

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
    async newCards(userId: string, take: { deckId: string; limit: number }[], now: number): Promise<QueueRow[]> {
      const [only] = take;
      // One deck (a study session of one deck): the same statement each time, prepared once.
      if (take.length === 1 && only) {
        return newCardsOfOneDeck(db, { userId, deckId: only.deckId, limit: only.limit, now });
      }
      const rows: QueueRow[] = [];
      await forEachBatch(take, UNION_CHUNK, async (batch) => {
        const parts = batch.map(({ deckId, limit }, index) =>
          db.selectFrom(newCardsOf(db, userId, deckId, limit, now).as(`d${index}`)).selectAll(),
        );
        const [first, ...rest] = parts;
        if (!first) return;
        const query = rest.reduce((union, part) => union.unionAll(part), first);
        rows.push(...(await query.execute()));
      });
      return rows;
    },

    /** The desired retention of each of the user's decks among `deckIds` (a numeric string on PostgreSQL). */
    async deckRetentions(
      userId: string,
      deckIds: readonly string[],
    ): Promise<Map<string, { retention: number; examDate: string | null }>> {
      const retentions = new Map<string, { retention: number; examDate: string | null }>();
      await forEachBatch(deckIds, UNION_CHUNK, async (batch) => {
        const rows = await db
          .selectFrom('decks')
          .select(['id', 'desired_retention', 'exam_date'])
          .where('user_id', '=', userId)
          .where('id', 'in', batch)
          .execute();
        for (const row of rows) {
          retentions.set(row.id, { retention: Number(row.desired_retention), examDate: row.exam_date });
        }
      });
      return retentions;
    },
  };
}

export type DueQueueRepo = ReturnType<typeof createDueQueueRepo>;
