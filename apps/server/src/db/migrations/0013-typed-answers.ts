import type { Kysely } from 'kysely';

// Typed answers (issue 35): what the learner typed before the card flipped and the grader's verdict, kept with the
// review (null for answers given without typing), so that overrides (a `wrong` answered pass, or the reverse) can be
// counted. Immutable once landed: change the schema with a new migration.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('review_logs').addColumn('typed', 'text').execute();
  await db.schema.alterTable('review_logs').addColumn('verdict', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('review_logs').dropColumn('verdict').execute();
  await db.schema.alterTable('review_logs').dropColumn('typed').execute();
}
