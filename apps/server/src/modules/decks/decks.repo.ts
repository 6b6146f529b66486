import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, DecksTable } from '../../db/schema';

export type DeckRow = Selectable<DecksTable> & { card_count: number };

/** SQL for decks. Every query is scoped by the owner's user_id: another user's deck is simply not there. */
export function createDecksRepo(db: Kysely<Database>) {
  // The deck's card count, answered from the cards_user_deck_state_due index.
  const withCardCount = () =>
    db
      .selectFrom('decks')
      .selectAll('decks')
      .select((eb) =>
        eb
          .selectFrom('cards')
          .select((count) => count.fn.countAll<number | string>().as('n'))
          .whereRef('cards.user_id', '=', 'decks.user_id')
          .whereRef('cards.deck_id', '=', 'decks.id')
          .as('card_count'),
      );

  return {
    async list(userId: string): Promise<DeckRow[]> {
      const rows = await withCardCount()
        .where('decks.user_id', '=', userId)
        .orderBy('decks.created_at')
        .orderBy('decks.id')
        .execute();
      return rows.map(normalizeCount);
    },

    async find(userId: string, id: string): Promise<DeckRow | undefined> {
      const row = await withCardCount()
        .where('decks.user_id', '=', userId)
        .where('decks.id', '=', id)
        .executeTakeFirst();
      return row ? normalizeCount(row) : undefined;
    },

    /** True when the user has a deck with this id. */
    async exists(userId: string, id: string): Promise<boolean> {
      const row = await db
        .selectFrom('decks')
        .select('id')
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row !== undefined;
    },

    async insert(row: Insertable<DecksTable>): Promise<void> {
      await db.insertInto('decks').values(row).execute();
    },

    async setDailyNewCardLimit(userId: string, id: string, limit: number, now: number): Promise<boolean> {
      const result = await db
        .updateTable('decks')
        .set({ daily_new_card_limit: limit, updated_at: now })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Deletes the deck; its cards, review log, shares and import records go with it (foreign keys cascade). */
    async delete(userId: string, id: string): Promise<boolean> {
      const result = await db.deleteFrom('decks').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

export type DecksRepo = ReturnType<typeof createDecksRepo>;

/** PostgreSQL returns count(*) as int8, which the pool parses to a number; be explicit for both dialects. */
function normalizeCount<T extends { card_count: number | string | null }>(row: T): T & { card_count: number } {
  return { ...row, card_count: Number(row.card_count ?? 0) };
}
