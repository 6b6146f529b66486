import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { rowLimit } from '../../db/row-limit';
import type { Database } from '../../db/schema';
import type { DeckCard, DuplicatesRepo } from './deck-duplicates';

/**
 * The duplicate check's reads, on the full-text index of migration 0006 (SQLite FTS5, PostgreSQL's GIN-indexed
 * search_vector): a deck's cards holding a card's rarest words, best ranked first, and a sample of the deck to tell
 * which words are rare. Terms are letters, digits and marks only (deck-duplicates.ts): nothing to escape.
 */
export function createDuplicatesRepo(db: Kysely<Database>): DuplicatesRepo {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const ofDeck = (userId: string, deckId: string) =>
    db.selectFrom('cards').where('user_id', '=', userId).where('deck_id', '=', deckId);
  return {
    async candidates(userId, deckId, groups, limit): Promise<DeckCard[]> {
      if (groups.length === 0) return [];
      if (postgres) {
        const tsquery = groups.map((terms) => `(${terms.map((term) => `'${term}':*`).join(' & ')})`).join(' | ');
        const result = await sql<DeckCard>`
          select c.id, c.question, c.answer from cards c
          where c.search_vector @@ to_tsquery('simple', ${tsquery}) and c.user_id = ${userId} and c.deck_id = ${deckId}
          order by ts_rank(c.search_vector, to_tsquery('simple', ${tsquery})) desc, c.id
          limit ${rowLimit(limit)}
        `.execute(db);
        return result.rows;
      }
      // The owner and deck are filtered on the cards row, not in the match: intersecting with a deck's whole
      // posting list cost more than the rare words' own lists.
      const terms = groups.map((group) => `(${group.map((term) => `"${term}"*`).join(' AND ')})`).join(' OR ');
      const result = await sql<DeckCard>`
        select c.id, c.question, c.answer from cards_fts f
        join cards c on c.rowid = f.rowid
        where cards_fts match ${`{question answer}: (${terms})`} and c.user_id = ${userId} and c.deck_id = ${deckId}
        order by bm25(cards_fts, 2.0, 1.0, 0.0, 0.0), f.rowid
        limit ${rowLimit(limit)}
      `.execute(db);
      return result.rows;
    },

    async sample(userId, deckId, size) {
      const counted = await ofDeck(userId, deckId)
        .select((eb) => eb.fn.countAll<number | string>().as('total'))
        .executeTakeFirst();
      const total = Number(counted?.total ?? 0);
      const cards = ofDeck(userId, deckId).select(['question', 'answer']);
      if (total <= size) return { total, cards: await cards.execute() };
      // Each card with probability size / total: one pass over the deck's rows, no sort.
      const share = size / total;
      const picked = postgres
        ? cards.where(sql<boolean>`random() < ${share}`)
        : cards.where(sql<boolean>`abs(random() % 1000000) < ${Math.ceil(share * 1_000_000)}`);
      return { total, cards: await picked.execute() };
    },

    async questionsAndAnswers(userId, deckId) {
      return ofDeck(userId, deckId).select(['question', 'answer']).execute();
    },
  };
}
