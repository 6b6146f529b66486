import { type Kysely, sql } from 'kysely';

// Study core, for accounts with 100,000 cards:
// - per-deck card counters by kind (new; learning and relearning; long-term review), kept in the same transaction
//   as every card insert, delete and state change, so that card counts and statistics cost one row per deck
//   instead of a pass over every card;
// - an index on a user's cards by deck, state and due date, for the per-deck queue (new cards in order), the count
//   of a deck's cards due now and its next due time.
// Immutable once landed: change the schema with a new migration.

const counters = ['new_cards', 'learning_cards', 'review_cards'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  for (const column of counters) {
    await db.schema
      .alterTable('decks')
      .addColumn(column, 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
  }
  await sql`
    update decks set
      new_cards = (select count(*) from cards where cards.deck_id = decks.id and cards.state = 0),
      learning_cards = (select count(*) from cards where cards.deck_id = decks.id and cards.state in (1, 3)),
      review_cards = (select count(*) from cards where cards.deck_id = decks.id and cards.state = 2)
  `.execute(db);

  await db.schema
    .createIndex('cards_user_deck_state_due')
    .on('cards')
    .columns(['user_id', 'deck_id', 'state', 'due'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('cards_user_deck_state_due').execute();
  for (const column of counters) await db.schema.alterTable('decks').dropColumn(column).execute();
}
