import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { rowLimit } from '../../db/row-limit';
import type { Database } from '../../db/schema';
import type { DeckCard, DuplicatesRepo } from './deck-duplicates';

/**
 * The duplicate check's reads, on the full-text index of migration 0006 (SQLite FTS5 with the owner and deck as
 * tokens, PostgreSQL's GIN-indexed search_vector): a deck's cards sharing any of a card's words, best ranked first.
 * Terms are letters, digits and marks only (deck-duplicates.ts), and ids 24 hex characters: nothing to escape.
 */
export function createDuplicatesRepo(db: Kysely<Database>): DuplicatesRepo {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return {
    async candidates(userId, deckId, terms, limit): Promise<DeckCard[]> {
      if (terms.length === 0) return [];
      if (postgres) {
        const tsquery = terms.map((term) => `'${term}':*`).join(' | ');
        const result = await sql<DeckCard>`
          select c.id, c.question, c.answer from cards c
          where c.search_vector @@ to_tsquery('simple', ${tsquery}) and c.user_id = ${userId} and c.deck_id = ${deckId}
          order by ts_rank(c.search_vector, to_tsquery('simple', ${tsquery})) desc, c.id
          limit ${rowLimit(limit)}
        `.execute(db);
        return result.rows;
      }
      const match = `user_id:"${userId}" AND deck_id:"${deckId}" AND {question answer}: (${terms.map((term) => `"${term}"*`).join(' OR ')})`;
      const result = await sql<DeckCard>`
        select c.id, c.question, c.answer from (
          select rowid as hit, bm25(cards_fts, 2.0, 1.0, 0.0, 0.0) as score from cards_fts
          where cards_fts match ${match}
          order by score, rowid
          limit ${rowLimit(limit)}
        ) f
        join cards c on c.rowid = f.hit
        where c.user_id = ${userId} and c.deck_id = ${deckId}
        order by f.score, f.hit
      `.execute(db);
      return result.rows;
    },

    async questionsAndAnswers(userId, deckId) {
      return db
        .selectFrom('cards')
        .select(['question', 'answer'])
        .where('user_id', '=', userId)
        .where('deck_id', '=', deckId)
        .execute();
    },
  };
}
