import type { Kysely } from 'kysely';

// The due queue and the next-due times read cards "order by due, id": with `id` as the indexes' last column the order
// comes from the index and a LIMIT stops the scan early, where before every match was sorted in a temporary b-tree.
// The old indexes are a prefix of the new ones: replaced.
// Immutable once landed: change the schema with a new migration.

const indexes = [
  { name: 'cards_user_state_due', columns: ['user_id', 'state', 'due'] },
  { name: 'cards_user_deck_state_due', columns: ['user_id', 'deck_id', 'state', 'due'] },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const { name, columns } of indexes) {
    await db.schema.dropIndex(name).execute();
    await db.schema
      .createIndex(name)
      .on('cards')
      .columns([...columns, 'id'])
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const { name, columns } of indexes) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on('cards').columns(columns).execute();
  }
}
