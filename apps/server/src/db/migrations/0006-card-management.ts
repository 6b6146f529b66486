import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Card management (issue 13):
// - full-text search over a card's question and answer. SQLite: an FTS5 table with the cards table as its external
//   content, kept in step by triggers on every insert, text update and delete of a card (cascades from a deleted
//   deck or account included); it also indexes the owner and deck ids, so that a search is scoped and ranked inside
//   the index. PostgreSQL: a stored generated column `search_vector`, the weighted tsvector of question (A) and
//   answer (B), which the database keeps itself, with a GIN index. Both tokenize with no stemming, so every word of a
//   search can match as a prefix;
// - an index for paging a deck's cards in creation order;
// - undo of a review: the review log stays append-only; a review row gains `undone_at` (set once when the answer is
//   taken back; counts and statistics skip such rows) and `card_before`, the card's scheduling fields before the
//   review as JSON, which undo restores.
// Immutable once landed: change the schema with a new migration.

/** The tsvector of a card on PostgreSQL (cards.search_vector). */
const PG_CARD_SEARCH_VECTOR =
  "setweight(to_tsvector('simple', question), 'A') || setweight(to_tsvector('simple', answer), 'B')";

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('review_logs').addColumn('undone_at', 'bigint').execute();
  await db.schema.alterTable('review_logs').addColumn('card_before', 'text').execute();

  await db.schema
    .createIndex('cards_user_deck_created')
    .on('cards')
    .columns(['user_id', 'deck_id', 'created_at', 'id'])
    .execute();

  if (isPostgres(db)) {
    await sql
      .raw(`alter table cards add column search_vector tsvector generated always as (${PG_CARD_SEARCH_VECTOR}) stored`)
      .execute(db);
    await sql`create index cards_search on cards using gin (search_vector)`.execute(db);
    return;
  }
  // remove_diacritics 0: the same words match as PostgreSQL's 'simple' configuration (which keeps accents).
  // prefix='2 3': prefix indexes make short prefix searches ('mi*', 'mit*') an index lookup.
  await sql`
    create virtual table cards_fts using fts5(
      question, answer, user_id, deck_id,
      content='cards', content_rowid='rowid',
      tokenize='unicode61 remove_diacritics 0', prefix='2 3'
    )
  `.execute(db);
  await sql`
    create trigger cards_fts_insert after insert on cards begin
      insert into cards_fts(rowid, question, answer, user_id, deck_id)
        values (new.rowid, new.question, new.answer, new.user_id, new.deck_id);
    end
  `.execute(db);
  await sql`
    create trigger cards_fts_delete after delete on cards begin
      insert into cards_fts(cards_fts, rowid, question, answer, user_id, deck_id)
        values ('delete', old.rowid, old.question, old.answer, old.user_id, old.deck_id);
    end
  `.execute(db);
  await sql`
    create trigger cards_fts_update after update of question, answer, user_id, deck_id on cards begin
      insert into cards_fts(cards_fts, rowid, question, answer, user_id, deck_id)
        values ('delete', old.rowid, old.question, old.answer, old.user_id, old.deck_id);
      insert into cards_fts(rowid, question, answer, user_id, deck_id)
        values (new.rowid, new.question, new.answer, new.user_id, new.deck_id);
    end
  `.execute(db);
  // Index the cards that exist already.
  await sql`insert into cards_fts(cards_fts) values ('rebuild')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop index cards_search`.execute(db);
    await sql`alter table cards drop column search_vector`.execute(db);
  } else {
    for (const trigger of ['cards_fts_insert', 'cards_fts_delete', 'cards_fts_update']) {
      await sql.raw(`drop trigger ${trigger}`).execute(db);
    }
    await sql`drop table cards_fts`.execute(db);
  }
  await db.schema.dropIndex('cards_user_deck_created').execute();
  await db.schema.alterTable('review_logs').dropColumn('card_before').execute();
  await db.schema.alterTable('review_logs').dropColumn('undone_at').execute();
}
