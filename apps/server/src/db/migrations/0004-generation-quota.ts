import type { Kysely } from 'kysely';

// Immutable once landed: change the schema with a new migration.

/**
 * Generation quota on the user row, so that one conditional UPDATE can check and take it atomically:
 * the free monthly allowance used in `quota_period` (a UTC month, "2026-11"), the monthly premium quota that
 * billing grants, and purchased generations. `last_draw_*` hold how the latest reservation was split across the
 * three, read back by that same UPDATE's RETURNING so that a refund gives each unit back where it came from.
 */
/** The counters, each an integer column defaulting to 0. */
const counters = [
  'free_used',
  'premium_quota',
  'premium_used',
  'purchased_generations',
  'last_draw_premium',
  'last_draw_free',
  'last_draw_purchased',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('quota_period', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
  for (const column of counters) {
    await db.schema
      .alterTable('users')
      .addColumn(column, 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['quota_period', ...counters]) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
}
