import type { Kysely } from 'kysely';

// Decks, cards with their FSRS state, the append-only review log, share links and feedback.
// Immutable once landed: change the schema with a new migration.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('decks')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('daily_new_card_limit', 'integer', (col) => col.notNull().defaultTo(20))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('decks_user_created').on('decks').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('cards')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('deck_id', 'text', (col) => col.notNull().references('decks.id').onDelete('cascade'))
    .addColumn('question', 'text', (col) => col.notNull())
    .addColumn('answer', 'text', (col) => col.notNull())
    // FSRS state (ts-fsrs Card): 0 new, 1 learning, 2 review, 3 relearning.
    .addColumn('state', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('due', 'bigint', (col) => col.notNull())
    .addColumn('stability', 'double precision', (col) => col.notNull().defaultTo(0))
    .addColumn('difficulty', 'double precision', (col) => col.notNull().defaultTo(0))
    .addColumn('scheduled_days', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('learning_steps', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('reps', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('lapses', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('last_review', 'bigint')
    // When the card left "new": the daily new-card limit counts the cards a deck introduced today.
    .addColumn('first_reviewed_at', 'bigint')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('cards_user_state_due').on('cards').columns(['user_id', 'state', 'due']).execute();
  await db.schema.createIndex('cards_deck_state_due').on('cards').columns(['deck_id', 'state', 'due']).execute();
  await db.schema
    .createIndex('cards_deck_first_review')
    .on('cards')
    .columns(['deck_id', 'first_reviewed_at'])
    .execute();

  // Append-only: one row per review, never updated. Feeds statistics and, later, per-user FSRS parameter fitting.
  await db.schema
    .createTable('review_logs')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('deck_id', 'text', (col) => col.notNull().references('decks.id').onDelete('cascade'))
    .addColumn('card_id', 'text', (col) => col.notNull().references('cards.id').onDelete('cascade'))
    .addColumn('reviewed_at', 'bigint', (col) => col.notNull())
    // ts-fsrs Rating: 1 Again ("fail"), 3 Good ("pass").
    .addColumn('rating', 'integer', (col) => col.notNull())
    .addColumn('state_before', 'integer', (col) => col.notNull())
    .addColumn('state_after', 'integer', (col) => col.notNull())
    .addColumn('due_before', 'bigint', (col) => col.notNull())
    .addColumn('due_after', 'bigint', (col) => col.notNull())
    .addColumn('stability', 'double precision', (col) => col.notNull())
    .addColumn('difficulty', 'double precision', (col) => col.notNull())
    .addColumn('scheduled_days', 'integer', (col) => col.notNull())
    .addColumn('elapsed_days', 'double precision', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('review_logs_user_time').on('review_logs').columns(['user_id', 'reviewed_at']).execute();
  await db.schema.createIndex('review_logs_deck_time').on('review_logs').columns(['deck_id', 'reviewed_at']).execute();
  await db.schema.createIndex('review_logs_card').on('review_logs').column('card_id').execute();

  await db.schema
    .createTable('shares')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('deck_id', 'text', (col) => col.notNull().references('decks.id').onDelete('cascade'))
    .addColumn('code', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('expires_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('shares_deck').on('shares').columns(['deck_id', 'expires_at']).execute();

  // Which shares a user has imported, so the same share is not imported twice. Deleting the copy allows it again.
  await db.schema
    .createTable('share_imports')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('share_id', 'text', (col) => col.notNull().references('shares.id').onDelete('cascade'))
    .addColumn('deck_id', 'text', (col) => col.notNull().references('decks.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addUniqueConstraint('share_imports_user_share', ['user_id', 'share_id'])
    .execute();

  await db.schema
    .createTable('feedback')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('email', 'text')
    .addColumn('feedback', 'text', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['feedback', 'share_imports', 'shares', 'review_logs', 'cards', 'decks']) {
    await db.schema.dropTable(table).execute();
  }
}
