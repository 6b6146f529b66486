import { type Kysely, sql } from 'kysely';

// Class progress's rollup (issue 38): per class and teacher's card, the reviews and "don't know" answers (rating 1)
// that current students' linked copies of it got, not undone. Kept in the review's, the undo's and offline sync's
// transaction, and taken out when a student leaves, is removed or deletes their account
// (study-core/class-card-stats.ts), so class progress reads one row per teacher's card instead of grouping every
// student's review log. Filled here from the review log as progress counted it before.
// Immutable once landed: change the schema with a new migration.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('class_card_stats')
    // The teacher's card first: its deletion cascades here through this key's prefix.
    .addColumn('card_id', 'text', (col) => col.notNull().references('cards.id').onDelete('cascade'))
    .addColumn('class_id', 'text', (col) => col.notNull().references('classes.id').onDelete('cascade'))
    .addColumn('reviews', 'integer', (col) => col.notNull())
    .addColumn('failed', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('class_card_stats_pk', ['card_id', 'class_id'])
    .execute();
  await db.schema.createIndex('class_card_stats_class').on('class_card_stats').columns(['class_id']).execute();

  await sql`insert into class_card_stats (card_id, class_id, reviews, failed)
    select c.source_card_id, copy.class_id, count(*), sum(case when r.rating = 1 then 1 else 0 end)
    from review_logs r
    join decks copy on copy.id = r.deck_id
    join class_members m on m.class_id = copy.class_id and m.user_id = copy.user_id
    join cards c on c.id = r.card_id
    join cards t on t.id = c.source_card_id
    where copy.class_id is not null and copy.source_deck_id is not null and r.undone_at is null
    group by c.source_card_id, copy.class_id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('class_card_stats').execute();
}
