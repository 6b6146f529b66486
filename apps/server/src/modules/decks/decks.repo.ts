import { setImmediate as nextTurn } from 'node:timers/promises';
import type { DeckSettings, DeckSettingsUpdate } from '@flashcards/shared/api-types';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, DecksTable } from '../../db/schema';
import { adjustDeckCounters, type CardCounter, counterFor } from '../study-core/deck-counters';
import { hasDeck, ownedDeck } from '../study-core/owned-rows';

export type DeckRow = Selectable<DecksTable> & { card_count: number };

/** Cards deleted per transaction when a deck goes. */
const DELETE_BATCH = 200;

const deckColumns = [
  'id',
  'user_id',
  'name',
  'daily_new_card_limit',
  'created_at',
  'updated_at',
  'new_cards',
  'learning_cards',
  'review_cards',
  'desired_retention',
] as const satisfies readonly (keyof DecksTable)[];

/** SQL for decks. Every query is scoped by the owner's user_id: another user's deck is simply not there. */
export function createDecksRepo(db: Kysely<Database>) {
  return {
    /** How many decks and cards the user has (cards from the decks' counters: no scan of the cards table). */
    async usage(userId: string): Promise<{ decks: number; cards: number }> {
      const row = await db
        .selectFrom('decks')
        .select((eb) => [
          eb.fn.countAll<number | string>().as('decks'),
          eb.fn
            .coalesce(
              eb.fn.sum<number | string>(eb('new_cards', '+', eb('learning_cards', '+', eb.ref('review_cards')))),
              eb.lit(0),
            )
            .as('cards'),
        ])
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return { decks: Number(row?.decks ?? 0), cards: Number(row?.cards ?? 0) };
    },

    async list(userId: string): Promise<DeckRow[]> {
      const rows = await db
        .selectFrom('decks')
        .select(deckColumns)
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(withCardCount);
    },

    async find(userId: string, id: string): Promise<DeckRow | undefined> {
      const row = await ownedDeck(db, userId, id).select(deckColumns).executeTakeFirst();
      return row ? withCardCount(row) : undefined;
    },

    /** True when the user has a deck with this id. */
    exists(userId: string, id: string): Promise<boolean> {
      return hasDeck(db, userId, id);
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

    /** Sets the given settings; answers the deck's settings afterwards, or undefined when there is no such deck. */
    async updateSettings(
      userId: string,
      id: string,
      settings: DeckSettingsUpdate,
      now: number,
    ): Promise<DeckSettings | undefined> {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('decks')
          .set({ ...settings, updated_at: now })
          .where('user_id', '=', userId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (result.numUpdatedRows === 0n) return undefined;
        const row = await ownedDeck(trx, userId, id)
          .select(['daily_new_card_limit', 'desired_retention'])
          .executeTakeFirstOrThrow();
        return { daily_new_card_limit: row.daily_new_card_limit, desired_retention: Number(row.desired_retention) };
      });
    },

    /**
     * Deletes the deck; its cards, review log, shares and import records go with it (foreign keys cascade). The
     * cards go first, DELETE_BATCH per transaction with the deck's counters kept, then its imported note guids,
     * yielding between batches: a deck of 200,000 cards never holds the event loop (or SQLite's one writer) for more
     * than one batch. Stopped halfway, what is left is a smaller, consistent deck.
     */
    async delete(userId: string, id: string): Promise<boolean> {
      for (;;) {
        const deleted = await db.transaction().execute(async (trx) => {
          const rows = await trx
            .deleteFrom('cards')
            .where(
              'id',
              'in',
              trx
                .selectFrom('cards')
                .select('id')
                .where('user_id', '=', userId)
                .where('deck_id', '=', id)
                .limit(DELETE_BATCH),
            )
            .returning('state')
            .execute();
          const changes: Record<CardCounter, number> = { new_cards: 0, learning_cards: 0, review_cards: 0 };
          for (const row of rows) changes[counterFor(row.state)] -= 1;
          await adjustDeckCounters(trx, { userId, deckId: id }, changes);
          return rows.length;
        });
        if (deleted < DELETE_BATCH) break;
        await nextTurn();
      }
      // The Anki note guids imported into the deck (one per note: 199,000 for a large package) go the same way.
      for (;;) {
        const result = await db
          .deleteFrom('imported_notes')
          .where('user_id', '=', userId)
          .where(
            'guid',
            'in',
            db
              .selectFrom('imported_notes')
              .select('guid')
              .where('user_id', '=', userId)
              .where('deck_id', '=', id)
              .limit(DELETE_BATCH * 5),
          )
          .executeTakeFirst();
        if (result.numDeletedRows < BigInt(DELETE_BATCH * 5)) break;
        await nextTurn();
      }
      const result = await db.deleteFrom('decks').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

export type DecksRepo = ReturnType<typeof createDecksRepo>;

/** The deck's card count, from its counters (migration 0003). */
function withCardCount(row: Selectable<DecksTable>): DeckRow {
  return { ...row, card_count: row.new_cards + row.learning_cards + row.review_cards };
}
