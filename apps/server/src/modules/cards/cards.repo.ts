import type { Insertable, Kysely, Selectable } from 'kysely';
import type { CardsTable, Database } from '../../db/schema';

export type CardRow = Selectable<CardsTable>;
export type NewCardRow = Insertable<CardsTable>;

/** The columns the API's Card shows. */
export const cardViewColumns = [
  'id',
  'deck_id',
  'question',
  'answer',
  'state',
  'due',
  'created_at',
  'reps',
  'lapses',
] as const satisfies readonly (keyof CardsTable)[];

export type CardViewRow = Pick<CardRow, (typeof cardViewColumns)[number]>;

/** Rows per INSERT: well under both dialects' bound-parameter limits (17 columns a row). */
export const INSERT_BATCH = 500;

/** Inserts card rows in batches (inside the caller's transaction, when it has one). */
export async function insertCards(db: Kysely<Database>, rows: NewCardRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    await db
      .insertInto('cards')
      .values(rows.slice(start, start + INSERT_BATCH))
      .execute();
  }
}

/** SQL for cards. Every query is scoped by the owner's user_id: another user's card is simply not there. */
export function createCardsRepo(db: Kysely<Database>) {
  return {
    listByDeck(userId: string, deckId: string): Promise<CardViewRow[]> {
      return db
        .selectFrom('cards')
        .select(cardViewColumns)
        .where('user_id', '=', userId)
        .where('deck_id', '=', deckId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    find(userId: string, id: string): Promise<CardRow | undefined> {
      return db.selectFrom('cards').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    },

    /** Adds cards to a deck of the user, all or none; false (nothing written) when the deck is not theirs. */
    async insertIntoDeck(userId: string, deckId: string, rows: NewCardRow[]): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const deck = await trx
          .selectFrom('decks')
          .select('id')
          .where('user_id', '=', userId)
          .where('id', '=', deckId)
          .executeTakeFirst();
        if (!deck) return false;
        await insertCards(trx, rows);
        return true;
      });
    },

    async updateText(
      userId: string,
      id: string,
      text: { question: string; answer: string },
      now: number,
    ): Promise<CardViewRow | undefined> {
      const result = await db
        .updateTable('cards')
        .set({ question: text.question, answer: text.answer, updated_at: now })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return undefined;
      return db
        .selectFrom('cards')
        .select(cardViewColumns)
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** Deletes the card and, through the foreign key, its review history. */
    async delete(userId: string, id: string): Promise<boolean> {
      const result = await db.deleteFrom('cards').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

export type CardsRepo = ReturnType<typeof createCardsRepo>;
