import type { Insertable, Kysely, Selectable } from 'kysely';
import type { CardsTable, Database, FsrsState } from '../../db/schema';

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

/** The per-deck counter (decks table, migration 0003) that counts cards in a state. */
export type CardCounter = 'new_cards' | 'learning_cards' | 'review_cards';

export function counterFor(state: FsrsState): CardCounter {
  return state === 0 ? 'new_cards' : state === 2 ? 'review_cards' : 'learning_cards';
}

/**
 * Adds to a deck's card counters. Call it in the same transaction as the card write it accounts for: cards are
 * only ever inserted, deleted or moved between states through this module and review.repo, which do so.
 */
export async function adjustDeckCounters(
  db: Kysely<Database>,
  owner: { userId: string; deckId: string },
  changes: Partial<Record<CardCounter, number>>,
): Promise<void> {
  const entries = Object.entries(changes).filter(([, delta]) => delta !== 0) as [CardCounter, number][];
  if (entries.length === 0) return;
  await db
    .updateTable('decks')
    .set((eb) => Object.fromEntries(entries.map(([column, delta]) => [column, eb(column, '+', delta)])))
    .where('user_id', '=', owner.userId)
    .where('id', '=', owner.deckId)
    .execute();
}

/**
 * Inserts card rows in batches and counts them on their decks. Run it inside a transaction (the callers do), so
 * that the cards and the counters change together or not at all.
 */
export async function insertCards(db: Kysely<Database>, rows: NewCardRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    await db
      .insertInto('cards')
      .values(rows.slice(start, start + INSERT_BATCH))
      .execute();
  }
  const perDeck = new Map<string, { userId: string; deckId: string; changes: Record<CardCounter, number> }>();
  for (const row of rows) {
    const key = `${row.user_id}:${row.deck_id}`;
    let entry = perDeck.get(key);
    if (!entry) {
      entry = {
        userId: row.user_id,
        deckId: row.deck_id,
        changes: { new_cards: 0, learning_cards: 0, review_cards: 0 },
      };
      perDeck.set(key, entry);
    }
    entry.changes[counterFor(row.state ?? 0)] += 1;
  }
  for (const { userId, deckId, changes } of perDeck.values()) {
    await adjustDeckCounters(db, { userId, deckId }, changes);
  }
}

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
