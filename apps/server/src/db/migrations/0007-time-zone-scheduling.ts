import { type Kysely, sql } from 'kysely';

// The learner's day, statistics and personal scheduling (issue 12):
// - users.time_zone (IANA name, default UTC): the study day runs 04:00 to 04:00 there;
// - users.fsrs_*: the FSRS parameters fitted to the user's own review log (JSON array, null for the defaults), when,
//   on how many reviews, and the log loss of the default and the fitted parameters on that log;
// - decks.desired_retention (0.70 to 0.97, default 0.90);
// - review_stats: the review log rolled up per user, deck and quarter hour (every time zone's offset is a whole number
//   of quarter hours, so any zone's study days are unions of these buckets). Kept in the transaction of every review;
//   GET /stats/history reads an index range of it instead of the review log. Filled here from the existing log.
// Immutable once landed: change the schema with a new migration.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('time_zone', 'text', (col) => col.notNull().defaultTo('UTC'))
    .execute();
  await db.schema.alterTable('users').addColumn('fsrs_parameters', 'text').execute();
  await db.schema.alterTable('users').addColumn('fsrs_optimized_at', 'bigint').execute();
  await db.schema
    .alterTable('users')
    .addColumn('fsrs_reviews_used', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('users').addColumn('fsrs_log_loss_default', 'double precision').execute();
  await db.schema.alterTable('users').addColumn('fsrs_log_loss_personal', 'double precision').execute();

  await db.schema
    .alterTable('decks')
    .addColumn('desired_retention', 'double precision', (col) => col.notNull().defaultTo(0.9))
    .execute();

  await db.schema
    .createTable('review_stats')
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('deck_id', 'text', (col) => col.notNull().references('decks.id').onDelete('cascade'))
    // floor(reviewed_at / 900000): the quarter hour since the epoch.
    .addColumn('bucket', 'integer', (col) => col.notNull())
    .addColumn('reviews', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('passed', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('new_cards', 'integer', (col) => col.notNull().defaultTo(0))
    // Answers to cards in long-term review (state 2 before the answer), and the passes among them.
    .addColumn('mature_reviews', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('mature_passed', 'integer', (col) => col.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('review_stats_pk', ['user_id', 'deck_id', 'bucket'])
    .execute();
  // All decks: one range of (user_id, bucket), covering every figure so the table itself is not read.
  await db.schema
    .createIndex('review_stats_user_bucket')
    .on('review_stats')
    .columns(['user_id', 'bucket', 'reviews', 'passed', 'new_cards', 'mature_reviews', 'mature_passed'])
    .execute();
  await db.schema.createIndex('review_stats_deck').on('review_stats').column('deck_id').execute();

  // Fitting reads a user's review log card by card, in time order, from the index alone.
  await db.schema
    .createIndex('review_logs_user_card_time')
    .on('review_logs')
    .columns(['user_id', 'card_id', 'reviewed_at', 'rating'])
    .execute();

  await sql`
    insert into review_stats (user_id, deck_id, bucket, reviews, passed, new_cards, mature_reviews, mature_passed)
    select user_id, deck_id, reviewed_at / 900000, count(*),
      sum(case when rating = 3 then 1 else 0 end),
      sum(case when state_before = 0 then 1 else 0 end),
      sum(case when state_before = 2 then 1 else 0 end),
      sum(case when state_before = 2 and rating = 3 then 1 else 0 end)
    from review_logs
    group by user_id, deck_id, reviewed_at / 900000
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('review_logs_user_card_time').execute();
  await db.schema.dropTable('review_stats').execute();
  await db.schema.alterTable('decks').dropColumn('desired_retention').execute();
  for (const column of [
    'fsrs_log_loss_personal',
    'fsrs_log_loss_default',
    'fsrs_reviews_used',
    'fsrs_optimized_at',
    'fsrs_parameters',
    'time_zone',
  ]) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
}
