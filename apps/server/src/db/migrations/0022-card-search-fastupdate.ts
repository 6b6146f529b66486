import { type Kysely, PostgresAdapter, sql } from 'kysely';

// The card search index (migration 0006) on PostgreSQL writes each new card straight into the GIN index instead of
// its pending list (fastupdate off): with the list on, every lookup right after a large import read the whole list
// (up to gin_pending_list_limit) until a VACUUM merged it, which made the duplicate check of a generation
// (modules/generation/deck-duplicates.ts) many times slower. Cards already pending are merged here. SQLite's FTS5
// table has no such list: nothing to do there.
// Immutable once landed: change the schema with a new migration.

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`alter index cards_search set (fastupdate = off)`.execute(db);
  await sql`select gin_clean_pending_list('cards_search'::regclass)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`alter index cards_search reset (fastupdate)`.execute(db);
}
