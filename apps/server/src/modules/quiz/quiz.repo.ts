import { type Kysely, sql } from 'kysely';
import { rowLimit } from '../../db/row-limit';
import type { Database } from '../../db/schema';
import { hasDeck } from '../study-core/owned-rows';
import type { QuizCard } from './quiz-modes';

/** SQLite binds at most 32,766 parameters a statement (older builds 999): ids go in chunks well below either. */
const idChunk = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += idChunk) out.push(items.slice(start, start + idChunk));
  return out;
}

/** SQL for the quiz: a deck and its cards, only when the deck belongs to the user. */
export function createQuizRepo(db: Kysely<Database>) {
  return {
    async findDeckCards(userId: string, deckId: string): Promise<QuizCard[] | null> {
      if (!(await hasDeck(db, userId, deckId))) return null;
      return db
        .selectFrom('cards')
        .select(['id', 'question', 'answer'])
        .where('deck_id', '=', deckId)
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    findDeckExists: (userId: string, deckId: string) => hasDeck(db, userId, deckId),

    /**
     * At most `limit` of the deck's cards, drawn at random by the database (null when the deck is not the user's):
     * the quiz modes read a bounded sample, so that a 30,000-card deck costs the database's shuffle, not 30,000 rows
     * through the server.
     */
    async sampleDeckCards(userId: string, deckId: string, limit: number): Promise<QuizCard[] | null> {
      if (!(await hasDeck(db, userId, deckId))) return null;
      return db
        .selectFrom('cards')
        .select(['id', 'question', 'answer'])
        .where('user_id', '=', userId)
        .where('deck_id', '=', deckId)
        .orderBy(sql`random()`)
        .limit(rowLimit(limit))
        .execute();
    },

    /** Which of `cardIds` are cards of the user's deck. */
    async cardsOfDeck(userId: string, deckId: string, cardIds: readonly string[]): Promise<Set<string>> {
      const found = new Set<string>();
      for (const ids of chunks(cardIds)) {
        const rows = await db
          .selectFrom('cards')
          .select('id')
          .where('user_id', '=', userId)
          .where('deck_id', '=', deckId)
          .where('id', 'in', ids)
          .execute();
        for (const row of rows) found.add(row.id);
      }
      return found;
    },

    /**
     * Makes the cards due at `now` (those due later; new cards are due from their creation already), without a
     * review: their state, stability and review log stay as they are.
     */
    async makeDue(userId: string, deckId: string, cardIds: readonly string[], now: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        for (const ids of chunks(cardIds)) {
          await trx
            .updateTable('cards')
            .set({ due: now, updated_at: now })
            .where('user_id', '=', userId)
            .where('deck_id', '=', deckId)
            .where('id', 'in', ids)
            .where('due', '>', now)
            .execute();
        }
      });
    },
  };
}

export type QuizRepo = ReturnType<typeof createQuizRepo>;
