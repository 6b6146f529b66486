import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { rowLimit } from '../../db/row-limit';
import type { Database } from '../../db/schema';
import { cardImages } from '../study-core/card-images';
import { type CardRow, type CardViewRow, cardViewColumns } from '../study-core/card-state';
import { adjustDeckCounters, counterFor, touchDeckContent } from '../study-core/deck-counters';
import { ownedCard } from '../study-core/owned-rows';
import { type DeckCursor, matchesAsPrefix } from './cursors';

/** A search hit: the card and its deck's name. */
export type CardSearchRow = CardViewRow & { deck_name: string };

export interface SearchQuery {
  userId: string;
  /** Lower-cased words; every one must match (as a word or a word's prefix) in the question or the answer. */
  words: string[];
  deckId: string | undefined;
  limit: number;
  offset: number;
}

/** SQL for cards. Every query is scoped by the owner's user_id: another user's card is simply not there. */
export function createCardsRepo(db: Kysely<Database>) {
  const imagesOf = (userId: string, cardIds: readonly string[]) => cardImages(db, userId, cardIds);
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const searchColumns = sql.raw(
    'c.id, c.deck_id, c.question, c.answer, c.state, c.due, c.created_at, c.reps, c.lapses, c.note_id, c.card_type, ' +
      'c.ord, d.name as deck_name',
  );

  return {
    /** The `images` of these cards of the user. */
    imagesOf,
    /** Up to `limit` cards of a deck in creation order, after the cursor's card (keyset paging). */
    listPage(userId: string, deckId: string, limit: number, after: DeckCursor | undefined): Promise<CardViewRow[]> {
      let query = db
        .selectFrom('cards')
        .select(cardViewColumns)
        .where('user_id', '=', userId)
        .where('deck_id', '=', deckId);
      if (after) {
        query = query.where((eb) =>
          eb.or([
            eb('created_at', '>', after.createdAt),
            eb.and([eb('created_at', '=', after.createdAt), eb('id', '>', after.id)]),
          ]),
        );
      }
      return query.orderBy('created_at').orderBy('id').limit(rowLimit(limit)).execute();
    },

    /**
     * Full-text search of the user's cards, best first: SQLite FTS5 ranked by bm25 (question weighs twice the
     * answer), PostgreSQL's GIN-indexed tsvector ranked by ts_rank (question A, answer B); ties by id.
     */
    async search(query: SearchQuery): Promise<CardSearchRow[]> {
      const { userId, words, deckId, limit, offset } = query;
      if (postgres) {
        const tsquery = words.map((word) => (matchesAsPrefix(word) ? `'${word}':*` : `'${word}'`)).join(' & ');
        const inDeck = deckId === undefined ? sql`` : sql`and c.deck_id = ${deckId}`;
        const result = await sql<CardSearchRow>`
          select ${searchColumns}
          from cards c join decks d on d.id = c.deck_id
          where c.search_vector @@ to_tsquery('simple', ${tsquery}) and c.user_id = ${userId} ${inDeck}
          order by ts_rank(c.search_vector, to_tsquery('simple', ${tsquery})) desc, c.id
          limit ${rowLimit(limit)} offset ${offset}
        `.execute(db);
        return result.rows;
      }
      // Owner and deck are tokens in the index: the search is scoped and ranked inside FTS5, and only the page's
      // rows are joined. Ids are 24 hex characters and words only letters, digits and marks: nothing to escape.
      const scope = deckId === undefined ? `user_id:"${userId}"` : `user_id:"${userId}" AND deck_id:"${deckId}"`;
      const match = `${scope} AND {question answer}: (${words.map((word) => (matchesAsPrefix(word) ? `"${word}"*` : `"${word}"`)).join(' AND ')})`;
      const result = await sql<CardSearchRow>`
        select ${searchColumns}
        from (
          select rowid as hit, bm25(cards_fts, 2.0, 1.0, 0.0, 0.0) as score from cards_fts
          where cards_fts match ${match}
          order by score, rowid
          limit ${rowLimit(limit)} offset ${offset}
        ) f
        join cards c on c.rowid = f.hit join decks d on d.id = c.deck_id
        where c.user_id = ${userId}
        order by f.score, f.hit
      `.execute(db);
      return result.rows;
    },

    /** The deck's first `limit` cards in creation order; always bounded (a deck may hold 200,000). */
    listByDeck(userId: string, deckId: string, limit: number): Promise<CardViewRow[]> {
      return db
        .selectFrom('cards')
        .select(cardViewColumns)
        .where('user_id', '=', userId)
        .where('deck_id', '=', deckId)
        .orderBy('created_at')
        .orderBy('id')
        .limit(rowLimit(limit))
        .execute();
    },

    find(userId: string, id: string): Promise<CardRow | undefined> {
      return ownedCard(db, userId, id).selectAll().executeTakeFirst();
    },

    /**
     * A basic card's new question and answer, and its note's front and back, together; `edit_note_instead` (nothing
     * written) for a card of another note type, whose text comes from its note.
     */
    async updateText(
      userId: string,
      id: string,
      text: { question: string; answer: string },
      now: number,
    ): Promise<CardViewRow | 'edit_note_instead' | undefined> {
      return db.transaction().execute(async (trx) => {
        const card = await ownedCard(trx, userId, id).select(['note_id', 'deck_id']).executeTakeFirst();
        if (!card) return undefined;
        const note = await trx
          .selectFrom('notes')
          .select('type')
          .where('user_id', '=', userId)
          .where('id', '=', card.note_id)
          .executeTakeFirst();
        if (note?.type !== 'basic') return 'edit_note_instead';
        await trx
          .updateTable('cards')
          .set({ question: text.question, answer: text.answer, updated_at: now })
          .where('user_id', '=', userId)
          .where('id', '=', id)
          .execute();
        await trx
          .updateTable('notes')
          .set({ fields: JSON.stringify({ front: text.question, back: text.answer }), updated_at: now })
          .where('user_id', '=', userId)
          .where('id', '=', card.note_id)
          .execute();
        await touchDeckContent(trx, userId, [card.deck_id]);
        return ownedCard(trx, userId, id).select(cardViewColumns).executeTakeFirst();
      });
    },

    /** Deletes the card and, through the foreign key, its review history; uncounts it on its deck. */
    /** Clears the source of a card and of its note's other cards (they share it); false when the card is not theirs. */
    async clearSource(userId: string, id: string): Promise<boolean> {
      const card = await ownedCard(db, userId, id).select('note_id').executeTakeFirst();
      if (!card) return false;
      await db
        .updateTable('cards')
        .set({ source: null })
        .where('user_id', '=', userId)
        .where('note_id', '=', card.note_id)
        .execute();
      return true;
    },

    async delete(userId: string, id: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const card = await ownedCard(trx, userId, id).select(['deck_id', 'state', 'note_id']).executeTakeFirst();
        if (!card) return false;
        const result = await trx
          .deleteFrom('cards')
          .where('user_id', '=', userId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (result.numDeletedRows === 0n) return false;
        await adjustDeckCounters(trx, { userId, deckId: card.deck_id }, { [counterFor(card.state)]: -1 });
        await touchDeckContent(trx, userId, [card.deck_id]);
        // A note left with no card goes too.
        const sibling = await trx
          .selectFrom('cards')
          .select('id')
          .where('user_id', '=', userId)
          .where('note_id', '=', card.note_id)
          .limit(rowLimit(1))
          .executeTakeFirst();
        if (!sibling) {
          await trx.deleteFrom('notes').where('user_id', '=', userId).where('id', '=', card.note_id).execute();
        }
        return true;
      });
    },
  };
}

export type CardsRepo = ReturnType<typeof createCardsRepo>;
