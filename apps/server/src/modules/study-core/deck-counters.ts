import type { Insertable, Kysely } from 'kysely';
import { forEachBatch, INSERT_BATCH } from '../../db/batches';
import type { Database, FsrsState, NotesTable } from '../../db/schema';
import { CardState, type NewCardRow } from './card-state';

/**
 * Each deck's card counters by kind (decks.new_cards, learning_cards, review_cards; migration 0003), kept in the
 * same transaction as every card insert, delete and review, so counts never scan cards. Cards are therefore only
 * written through `insertCards` here, cards.repo and review/review-answers.repo.
 */

/** The per-deck counter that counts cards in a state. */
export type CardCounter = 'new_cards' | 'learning_cards' | 'review_cards';

export function counterFor(state: FsrsState): CardCounter {
  if (state === CardState.New) return 'new_cards';
  if (state === CardState.Review) return 'review_cards';
  return 'learning_cards';
}

export type NewNoteRow = Insertable<NotesTable>;

/** The basic note of one card that a card inserted without a note belongs to (note id = its `note_id`). */
export function basicNoteOf(card: NewCardRow): NewNoteRow {
  return {
    id: card.note_id,
    user_id: card.user_id,
    deck_id: card.deck_id,
    type: 'basic',
    fields: JSON.stringify({ front: card.question, back: card.answer }),
    created_at: card.created_at,
    updated_at: card.updated_at,
  };
}

/** Inserts note rows, INSERT_BATCH a statement. Run it in the transaction that inserts their cards. */
export async function insertNoteRows(db: Kysely<Database>, notes: readonly NewNoteRow[]): Promise<void> {
  await forEachBatch(notes, INSERT_BATCH, async (batch) => {
    await db.insertInto('notes').values(batch).execute();
  });
}

/** Adds to a deck's card counters. Call it in the same transaction as the card write it accounts for. */
export async function adjustDeckCounters(
  db: Kysely<Database>,
  owner: { userId: string; deckId: string },
  changes: Partial<Record<CardCounter, number>>,
): Promise<void> {
  const entries = Object.entries(changes).filter(([, delta]) => delta !== 0) as [CardCounter, number][];
  if (entries.length === 0) return;
  await db
    .updateTable('decks')
    .set((eb) => Object.fromEntries(entries.map(([column, delta]) => [column, eb(column, '+', delta)])))
    .where('user_id', '=', owner.userId)
    .where('id', '=', owner.deckId)
    .execute();
}

/** Marks decks' notes or cards as changed, so their linked class copies sync (study-core/linked-decks.ts). Call it in the transaction of the change. */
export async function touchDeckContent(db: Kysely<Database>, userId: string, deckIds: Iterable<string>): Promise<void> {
  const ids = [...new Set(deckIds)];
  if (ids.length === 0) return;
  await db
    .updateTable('decks')
    .set((eb) => ({ content_version: eb('content_version', '+', 1) }))
    .where('user_id', '=', userId)
    .where('id', 'in', ids)
    .execute();
}

/**
 * Inserts card rows in batches, with the notes they belong to, and counts them on their decks. Run it inside a
 * transaction (the callers do), so that the cards, their notes and the counters change together or not at all.
 * Without `notes`, each card is a basic note of its own (`basicNoteOf`).
 */
export async function insertCards(
  db: Kysely<Database>,
  rows: NewCardRow[],
  notes: readonly NewNoteRow[] = rows.map(basicNoteOf),
): Promise<void> {
  await insertNoteRows(db, notes);
  await forEachBatch(rows, INSERT_BATCH, async (batch) => {
    await db.insertInto('cards').values(batch).execute();
  });
  const perDeck = new Map<string, { userId: string; deckId: string; changes: Record<CardCounter, number> }>();
  for (const row of rows) {
    const key = `${row.user_id}:${row.deck_id}`;
    let entry = perDeck.get(key);
    if (!entry) {
      entry = {
        userId: row.user_id,
        deckId: row.deck_id,
        changes: { new_cards: 0, learning_cards: 0, review_cards: 0 },
      };
      perDeck.set(key, entry);
    }
    entry.changes[counterFor(row.state ?? CardState.New)] += 1;
  }
  for (const { userId, deckId, changes } of perDeck.values()) {
    await adjustDeckCounters(db, { userId, deckId }, changes);
    await touchDeckContent(db, userId, [deckId]);
  }
}
