import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/database';
import { createCardsRepo } from '../src/modules/cards/cards.repo';
import { createReviewAnswersRepo } from '../src/modules/review/review-answers.repo';
import { insertUserRow, migratedBackTo } from './support/migration';
import { useTestDatabase } from './support/test-database';

/** Migration 0006 makes the cards that exist already searchable, leaves older reviews alone, and undoes cleanly. */

const database = useTestDatabase();

const USER = 'e'.repeat(24);
const DECK = 'd'.repeat(24);

describe('migration 0006-card-management', () => {
  it('indexes existing cards for search; a review from before it cannot be undone; down and up again', async () => {
    const { db, dialect } = database.current;
    const migrator = await migratedBackTo(database.current, '0005-billing');

    const now = Date.parse('2026-11-22T10:00:00.000Z');
    await insertUserRow(db, USER, 'm6@example.com', now);
    await sql`insert into decks (id, user_id, name, daily_new_card_limit, created_at, updated_at)
      values (${DECK}, ${USER}, 'Old deck', 20, ${now}, ${now})`.execute(db);
    const texts = ['Photosynthesis in chloroplasts', 'Mitochondria make ATP', 'Ribosomes make proteins'];
    for (const [index, question] of texts.entries()) {
      await sql`insert into cards (id, user_id, deck_id, question, answer, state, due, reps, created_at, updated_at)
        values (${String(index).padStart(24, 'c')}, ${USER}, ${DECK}, ${question}, 'old answer', 1, ${now}, 1, ${now + index}, ${now})`.execute(
        db,
      );
    }
    await sql`insert into review_logs (id, user_id, deck_id, card_id, reviewed_at, rating, state_before, state_after,
        due_before, due_after, stability, difficulty, scheduled_days, elapsed_days)
      values (${'f'.repeat(24)}, ${USER}, ${DECK}, ${'0'.padStart(24, 'c')}, ${now}, 3, 0, 1, ${now}, ${now}, 1, 5, 0, 0)`.execute(
      db,
    );

    await migrateToLatest(db, dialect);
    const cards = createCardsRepo(db);
    const search = (words: string[]) =>
      cards
        .search({ userId: USER, words, deckId: undefined, limit: 10, offset: 0 })
        .then((rows) => rows.map((row) => [row.question, row.deck_name]));
    expect(await search(['mito'])).toEqual([['Mitochondria make ATP', 'Old deck']]);
    expect((await search(['make'])).map(([question]) => question).sort()).toEqual([
      'Mitochondria make ATP',
      'Ribosomes make proteins',
    ]);
    expect(await search(['old', 'answ'])).toHaveLength(3);
    const log = await db.selectFrom('review_logs').select(['undone_at', 'card_before']).executeTakeFirstOrThrow();
    expect(log).toEqual({ undone_at: null, card_before: null });
    // Without the card's state before that review, there is nothing to restore.
    expect(await createReviewAnswersRepo(db).undoLatestReview(USER, '0'.padStart(24, 'c'), now + 1000, now)).toBe(
      'nothing_to_undo',
    );

    expect((await migrator.migrateTo('0005-billing')).error).toBeUndefined();
    const columns = (await db.introspection.getTables()).find((table) => table.name === 'review_logs')?.columns;
    expect(columns?.map((column) => column.name)).not.toContain('undone_at');
    await migrateToLatest(db, dialect);
    expect(await search(['ribo', 'prot'])).toEqual([['Ribosomes make proteins', 'Old deck']]);
  });
});
