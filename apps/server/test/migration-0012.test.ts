import { describe, expect, it } from 'vitest';
import { createMigrator, migrateToLatest } from '../src/db/database';
import { useTestDatabase } from './support/test-database';

/**
 * Migration 0012 makes every existing card a basic note of one card (the note's id is the card's), keeping the
 * card's id, schedule and review log; its down removes the notes and the new columns.
 */

const database = useTestDatabase();

describe('migration 0012-notes', () => {
  it('turns each card into a basic note of one card, keeping ids, schedules and the review log', async () => {
    const { db, dialect } = database.current;
    const migrator = await createMigrator(db, dialect);
    expect((await migrator.migrateTo('0011-media-chunks')).error).toBeUndefined();

    const now = Date.parse('2026-11-26T08:00:00.000Z');
    const userId = 'u'.repeat(24);
    const deckId = 'd'.repeat(24);
    await db
      .insertInto('users')
      .values({
        id: userId,
        email: 'n@example.com',
        name: 'N',
        password_hash: null,
        google_sub: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await db
      .insertInto('decks')
      .values({ id: deckId, user_id: userId, name: 'Old', daily_new_card_limit: 20, created_at: now, updated_at: now })
      .execute();
    const cards = [
      {
        id: 'a'.repeat(24),
        question: 'What is "ATP"?\n$x^{2}$',
        answer: "Energy\\n 'quoted' ✓",
        state: 2,
        due: now + 86_400_000,
        stability: 3.5,
        reps: 4,
      },
      { id: 'b'.repeat(24), question: 'New one', answer: 'Back', state: 0, due: now, stability: 0, reps: 0 },
    ];
    for (const card of cards) {
      // A card as it was before 0012 (no note_id): the table type describes the schema after it.
      await db
        .insertInto('cards')
        .values({
          id: card.id,
          user_id: userId,
          deck_id: deckId,
          question: card.question,
          answer: card.answer,
          state: card.state,
          due: card.due,
          stability: card.stability,
          difficulty: 5,
          scheduled_days: 1,
          learning_steps: 0,
          reps: card.reps,
          lapses: 1,
          last_review: card.state === 0 ? null : now - 1000,
          first_reviewed_at: card.state === 0 ? null : now - 2000,
          created_at: now - 5000,
          updated_at: now - 4000,
        } as never)
        .execute();
    }
    await db
      .insertInto('review_logs')
      .values({
        id: 'e'.repeat(24),
        user_id: userId,
        deck_id: deckId,
        card_id: 'a'.repeat(24),
        reviewed_at: now - 1000,
        rating: 3,
        state_before: 0,
        state_after: 2,
        due_before: now - 5000,
        due_after: now + 86_400_000,
        stability: 3.5,
        difficulty: 5,
        scheduled_days: 1,
        elapsed_days: 0,
        undone_at: null,
        card_before: null,
      })
      .execute();

    await migrateToLatest(db, dialect);

    const notes = await db.selectFrom('notes').selectAll().orderBy('id').execute();
    expect(
      // Columns later migrations add (a class copy's source note) are theirs to test.
      notes.map(({ source_note_id: _later, ...note }) => ({
        ...note,
        fields: JSON.parse(note.fields),
        created_at: Number(note.created_at),
        updated_at: Number(note.updated_at),
      })),
    ).toEqual([
      {
        id: 'a'.repeat(24),
        user_id: userId,
        deck_id: deckId,
        type: 'basic',
        fields: { front: cards[0]?.question, back: cards[0]?.answer },
        created_at: now - 5000,
        updated_at: now - 4000,
      },
      {
        id: 'b'.repeat(24),
        user_id: userId,
        deck_id: deckId,
        type: 'basic',
        fields: { front: 'New one', back: 'Back' },
        created_at: now - 5000,
        updated_at: now - 4000,
      },
    ]);
    const after = await db
      .selectFrom('cards')
      .select([
        'id',
        'note_id',
        'card_type',
        'ord',
        'buried_until',
        'question',
        'answer',
        'state',
        'due',
        'stability',
        'reps',
      ])
      .orderBy('id')
      .execute();
    expect(after.map((card) => ({ ...card, due: Number(card.due) }))).toEqual(
      cards.map((card) => ({
        id: card.id,
        note_id: card.id,
        card_type: 'basic',
        ord: 0,
        buried_until: null,
        question: card.question,
        answer: card.answer,
        state: card.state,
        due: card.due,
        stability: card.stability,
        reps: card.reps,
      })),
    );
    const logs = await db.selectFrom('review_logs').select(['id', 'card_id']).execute();
    expect(logs).toEqual([{ id: 'e'.repeat(24), card_id: 'a'.repeat(24) }]);

    expect((await migrator.migrateTo('0011-media-chunks')).error).toBeUndefined();
    const columns = await db.introspection.getTables();
    expect(columns.some((table) => table.name === 'notes')).toBe(false);
    const cardColumns = columns.find((table) => table.name === 'cards')?.columns.map((column) => column.name) ?? [];
    expect(cardColumns).not.toContain('note_id');
    expect(cardColumns).not.toContain('buried_until');
    expect(await db.selectFrom('cards').select('id').orderBy('id').execute()).toEqual([
      { id: 'a'.repeat(24) },
      { id: 'b'.repeat(24) },
    ]);
    await migrateToLatest(db, dialect);
  });
});
