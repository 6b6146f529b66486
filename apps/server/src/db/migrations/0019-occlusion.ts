import type { Kysely } from 'kysely';

// Image occlusion (issue 34): an occlusion card's image and masks as its note rendered them (JSON of the API's
// `occlusion`), stored beside its question and answer so every read of a card shows it without reading its note;
// null for every other card. Immutable once landed: change the schema with a new migration.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('cards').addColumn('occlusion', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('cards').dropColumn('occlusion').execute();
}
