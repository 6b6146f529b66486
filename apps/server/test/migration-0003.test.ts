import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/database';
import { insertUserRow, migratedBackTo } from './support/migration';
import { useTestDatabase } from './support/test-database';

/** Migration 0003 counts the cards that decks already have when it runs, and undoes cleanly. */

const database = useTestDatabase();

describe('migration 0003-study-core-extras', () => {
  it('backfills each deck’s card counters from its cards, by state', async () => {
    const { db, dialect } = database.current;
    await migratedBackTo(database.current, '0002-study-core');

    const now = Date.parse('2026-11-22T10:00:00.000Z');
    await insertUserRow(db, 'u'.repeat(24), 'm@example.com', now);
    const deck = (id: string) =>
      sql`insert into decks (id, user_id, name, daily_new_card_limit, created_at, updated_at)
          values (${id}, ${'u'.repeat(24)}, 'D', 20, ${now}, ${now})`.execute(db);
    await deck('a'.repeat(24));
    await deck('b'.repeat(24));
    const states = [0, 0, 0, 1, 2, 2, 3];
    for (const [index, state] of states.entries()) {
      await sql`insert into cards (id, user_id, deck_id, question, answer, state, due, created_at, updated_at)
        values (${String(index).padStart(24, 'c')}, ${'u'.repeat(24)}, ${'a'.repeat(24)}, 'Q', 'A', ${state}, ${now}, ${now}, ${now})`.execute(
        db,
      );
    }

    await migrateToLatest(db, dialect);
    const rows = await db
      .selectFrom('decks')
      .select(['id', 'new_cards', 'learning_cards', 'review_cards'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: 'a'.repeat(24), new_cards: 3, learning_cards: 2, review_cards: 2 },
      { id: 'b'.repeat(24), new_cards: 0, learning_cards: 0, review_cards: 0 },
    ]);
  });
});
