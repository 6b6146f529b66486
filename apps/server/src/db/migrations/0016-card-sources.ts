import type { Kysely } from 'kysely';

// Sources of AI cards (issue 36): `source` holds the JSON of where a generated card came from (document, page or
// slide, quote, paragraph), null for cards made by hand or imported and once the learner deletes it. On the card
// rows, not the notes: every query that shows a card already reads them, and a note's cards share one source.
// Duplicates of a deck need no new index: the full-text index of migration 0006 gives their candidates.
// Immutable once landed: change the schema with a new migration.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('cards').addColumn('source', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('cards').dropColumn('source').execute();
}
