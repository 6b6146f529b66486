import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/database';
import { createDuplicatesRepo } from '../src/modules/generation/deck-duplicates.repo';
import { newCardRow } from '../src/modules/study-core/card-state';
import { insertCards } from '../src/modules/study-core/deck-counters';
import { insertUserRow, migratedBackTo } from './support/migration';
import { useTestDatabase } from './support/test-database';

/**
 * Migration 0022 turns the PostgreSQL card search index's pending list off: cards written before it stay findable,
 * cards written after it are found too, and down restores the default. On SQLite it changes nothing.
 */

const database = useTestDatabase();

const USER = 'a'.repeat(24);
const DECK = 'd'.repeat(24);
const NOW = Date.parse('2026-11-26T21:00:00.000Z');

async function indexOptions(): Promise<string[] | null> {
  const result = await sql<{ reloptions: string[] | null }>`
    select reloptions from pg_class where oid = 'cards_search'::regclass`.execute(database.current.db);
  return result.rows[0]?.reloptions ?? null;
}

describe('migration 0022-card-search-fastupdate', () => {
  it('keeps cards from before findable, indexes new ones at once, and down restores the pending list', async () => {
    const { db, dialect } = database.current;
    const migrator = await migratedBackTo(database.current, '0020-classes');
    await insertUserRow(db, USER, 'm22@example.com', NOW);
    await sql`insert into decks (id, user_id, name, daily_new_card_limit, created_at, updated_at)
      values (${DECK}, ${USER}, 'Chemistry', 20, ${NOW}, ${NOW})`.execute(db);
    const card = (id: string, question: string, answer: string) =>
      newCardRow({ id: id.padStart(24, 'c'), userId: USER, deckId: DECK }, { question, answer }, NOW);
    await insertCards(db, [card('1', 'What does the enzyme catalase break down?', 'Hydrogen peroxide')]);

    await migrateToLatest(db, dialect);
    if (dialect === 'postgres') expect(await indexOptions()).toEqual(['fastupdate=off']);
    await insertCards(db, [card('2', 'Which ion does the sodium pump move out?', 'Sodium')]);

    const repo = createDuplicatesRepo(db);
    const found = async (terms: string[]) =>
      (await repo.candidates(USER, DECK, [terms], 12)).map((row) => row.id.replace(/^c+/, ''));
    expect(await found(['catalase'])).toEqual(['1']);
    expect(await found(['sodium'])).toEqual(['2']);
    expect(await found(['peroxide', 'hydrogen'])).toEqual(['1']);

    expect((await migrator.migrateDown()).error).toBeUndefined();
    if (dialect === 'postgres') expect(await indexOptions()).toBeNull();
    expect(await found(['catalase'])).toEqual(['1']);
    await migrateToLatest(db, dialect);
    if (dialect === 'postgres') expect(await indexOptions()).toEqual(['fastupdate=off']);
  });
});
