import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Notes and card types (issue 33): a note holds what the learner wrote (its type and fields, JSON text), its cards are
// what review shows. Cards gain the note they belong to, their card type and ordinal (a cloze card's number − 1), and
// `buried_until`: a sibling of a card answered today leaves the queue until the next study day.
// Every existing card becomes a basic note of one card whose note id is the card's own id, so ids, schedules and the
// review log stay as they are; cards.question and answer stay the rendered markdown review reads.
// SQLite cannot add NOT NULL to an existing column, nor drop one under a foreign key: note_id is filled here, always
// written by the server (notes.repo deletes a note's cards with it), and has no foreign key, so `down` works on both.
// Immutable once landed: change the schema with a new migration.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('notes')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('deck_id', 'text', (col) => col.notNull().references('decks.id').onDelete('cascade'))
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('fields', 'text', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('notes_user_deck').on('notes').columns(['user_id', 'deck_id', 'id']).execute();
  await db.schema.createIndex('notes_deck').on('notes').column('deck_id').execute();

  await db.schema.alterTable('cards').addColumn('note_id', 'text').execute();
  await db.schema
    .alterTable('cards')
    .addColumn('card_type', 'text', (col) => col.notNull().defaultTo('basic'))
    .execute();
  await db.schema
    .alterTable('cards')
    .addColumn('ord', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('cards').addColumn('buried_until', 'bigint').execute();

  const fields = postgres
    ? sql`json_build_object('front', question, 'back', answer)::text`
    : sql`json_object('front', question, 'back', answer)`;
  await sql`insert into notes (id, user_id, deck_id, type, fields, created_at, updated_at)
    select id, user_id, deck_id, 'basic', ${fields}, created_at, updated_at from cards`.execute(db);
  await sql`update cards set note_id = id`.execute(db);
  if (postgres) await sql`alter table cards alter column note_id set not null`.execute(db);

  await db.schema.createIndex('cards_note').on('cards').columns(['note_id', 'ord']).execute();
  // Only today's buried siblings are in it (the server clears expired ones), so counting them per deck is cheap.
  await db.schema
    .createIndex('cards_user_buried')
    .on('cards')
    .columns(['user_id', 'deck_id', 'buried_until'])
    .where(sql.ref('buried_until'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('cards_user_buried').execute();
  await db.schema.dropIndex('cards_note').execute();
  for (const column of ['buried_until', 'ord', 'card_type', 'note_id']) {
    await db.schema.alterTable('cards').dropColumn(column).execute();
  }
  await db.schema.dropTable('notes').execute();
}
