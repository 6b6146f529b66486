import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { type CardRow, type CardViewRow, cardViewColumns, type NewCardRow } from '../study-core/card-state';
import { adjustDeckCounters, counterFor, insertCards } from '../study-core/deck-counters';

/** SQL for cards. Every query is scoped by the owner's user_id: another user's card is simply not there. */
export function createCardsRepo(db: Kysely<Database>) {
  return {
    listByDeck(userId: string, deckId: string, limit?: number): Promise<CardViewRow[]> {
      const query = db
        .selectFrom('cards')
        .select(cardViewColumns)
        .where('user_id', '=', userId)
        .where('deck_id', '=', deckId)
        .orderBy('created_at')
        .orderBy('id');
      return (limit === undefined ? query : query.limit(limit)).execute();
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

    /** Deletes the card and, through the foreign key, its review history; uncounts it on its deck. */
    async delete(userId: string, id: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const card = await trx
          .selectFrom('cards')
          .select(['deck_id', 'state'])
          .where('user_id', '=', userId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (!card) return false;
        const result = await trx
          .deleteFrom('cards')
          .where('user_id', '=', userId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (result.numDeletedRows === 0n) return false;
        await adjustDeckCounters(trx, { userId, deckId: card.deck_id }, { [counterFor(card.state)]: -1 });
        return true;
      });
    },
  };
}

export type CardsRepo = ReturnType<typeof createCardsRepo>;
