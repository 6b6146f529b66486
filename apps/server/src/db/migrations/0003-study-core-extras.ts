import type { Kysely } from 'kysely';

// One more index for the study core: a user's cards by deck, state and due date. It answers the per-deck queue
// (new cards of a deck in order), the per-deck statistics and the card count of every deck from the index alone,
// without reading the rows, so these stay fast for an account with 100,000 cards.
// Immutable once landed: change the schema with a new migration.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('cards_user_deck_state_due')
    .on('cards')
    .columns(['user_id', 'deck_id', 'state', 'due'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('cards_user_deck_state_due').execute();
}
