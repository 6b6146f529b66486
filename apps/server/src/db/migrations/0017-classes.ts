import { type Kysely, sql } from 'kysely';

// Classes (issue 38): a teacher's class, its members and its assigned decks. A student's linked copy of an assigned
// deck is an ordinary deck row with `class_id` and `source_deck_id`; its notes and cards name the teacher's note and
// card they copy (`source_note_id`, `source_card_id`, unique per copy so that two syncs at once cannot duplicate).
// The teacher's deck counts its content edits in `content_version`; a copy remembers the version it last synced, so
// propagation is a comparison at the student's next request, never a write per student at edit time.
// Immutable once landed: change the schema with a new migration.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('classes')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('teacher_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('join_code', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('classes_teacher').on('classes').columns(['teacher_id', 'created_at']).execute();

  await db.schema
    .createTable('class_members')
    .addColumn('class_id', 'text', (col) => col.notNull().references('classes.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('joined_at', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('class_members_pk', ['class_id', 'user_id'])
    .execute();
  await db.schema.createIndex('class_members_user').on('class_members').columns(['user_id', 'class_id']).execute();

  await db.schema
    .createTable('class_decks')
    .addColumn('class_id', 'text', (col) => col.notNull().references('classes.id').onDelete('cascade'))
    .addColumn('deck_id', 'text', (col) => col.notNull().references('decks.id').onDelete('cascade'))
    .addColumn('assigned_at', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('class_decks_pk', ['class_id', 'deck_id'])
    .execute();
  await db.schema.createIndex('class_decks_deck').on('class_decks').columns(['deck_id']).execute();

  await db.schema
    .alterTable('decks')
    .addColumn('content_version', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('decks').addColumn('synced_version', 'integer').execute();
  await db.schema
    .alterTable('decks')
    .addColumn('class_id', 'text', (col) => col.references('classes.id').onDelete('set null'))
    .execute();
  await db.schema
    .alterTable('decks')
    .addColumn('source_deck_id', 'text', (col) => col.references('decks.id').onDelete('set null'))
    .execute();
  // One copy of an assigned deck per student and class deck, whatever races.
  await db.schema
    .createIndex('decks_linked_copy')
    .on('decks')
    .columns(['user_id', 'class_id', 'source_deck_id'])
    .unique()
    .where(sql.ref('source_deck_id'), 'is not', null)
    .execute();
  await db.schema.createIndex('decks_source_deck').on('decks').columns(['source_deck_id']).execute();
  await db.schema.createIndex('decks_class').on('decks').columns(['class_id', 'user_id']).execute();

  await db.schema.alterTable('notes').addColumn('source_note_id', 'text').execute();
  await db.schema
    .createIndex('notes_deck_source')
    .on('notes')
    .columns(['deck_id', 'source_note_id'])
    .unique()
    .where(sql.ref('source_note_id'), 'is not', null)
    .execute();
  await db.schema.alterTable('cards').addColumn('source_card_id', 'text').execute();
  await db.schema
    .createIndex('cards_deck_source')
    .on('cards')
    .columns(['deck_id', 'source_card_id'])
    .unique()
    .where(sql.ref('source_card_id'), 'is not', null)
    .execute();
  // Class progress maps each review's card to the teacher's card without reading the card rows.
  await db.schema
    .createIndex('cards_source_of')
    .on('cards')
    .columns(['id', 'source_card_id'])
    .where(sql.ref('source_card_id'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('cards_source_of').execute();
  await db.schema.dropIndex('cards_deck_source').execute();
  await db.schema.alterTable('cards').dropColumn('source_card_id').execute();
  await db.schema.dropIndex('notes_deck_source').execute();
  await db.schema.alterTable('notes').dropColumn('source_note_id').execute();
  await db.schema.dropIndex('decks_class').execute();
  await db.schema.dropIndex('decks_source_deck').execute();
  await db.schema.dropIndex('decks_linked_copy').execute();
  for (const column of ['source_deck_id', 'class_id', 'synced_version', 'content_version']) {
    await db.schema.alterTable('decks').dropColumn(column).execute();
  }
  await db.schema.dropTable('class_decks').execute();
  await db.schema.dropTable('class_members').execute();
  await db.schema.dropTable('classes').execute();
}
