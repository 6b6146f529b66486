import type { RenderedCard } from '@flashcards/shared/notes';
import type { Kysely } from 'kysely';
import { forEachBatch, INSERT_BATCH } from '../../db/batches';
import type { Database } from '../../db/schema';
import { type CardViewRow, cardViewColumns, newCardRow, occlusionColumn } from '../study-core/card-state';
import {
  adjustDeckCounters,
  type CardCounter,
  counterFor,
  insertCards,
  touchDeckContent,
} from '../study-core/deck-counters';
import { type NewNote, type NoteRow, noteBatches } from '../study-core/note-rows';
import { hasDeck } from '../study-core/owned-rows';

/** A note with its cards, in ord order. */
export interface NoteWithCardRows {
  note: NoteRow;
  cards: CardViewRow[];
}

/** The identity of a card within its note: cards of an edited note are matched by it. */
export const cardKey = (card: { card_type: string; ord: number }) => `${card.card_type}:${card.ord}`;

/** A note's new fields and the cards they render, as PUT /notes/{id} writes them. */
export interface NoteEdit {
  fields: string;
  cards: readonly RenderedCard[];
  now: number;
  newId: () => string;
}

/** An image shown by a new card: its place in the card's `images`. */
export interface CardImageLink {
  cardId: string;
  mediaId: string;
  position: number;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The user's note by id (scoped by user_id, like ownedCard). */
function ownedNote(db: Kysely<Database>, userId: string, noteId: string) {
  return db.selectFrom('notes').where('user_id', '=', userId).where('id', '=', noteId);
}

function cardsOfNote(db: Kysely<Database>, userId: string, noteId: string) {
  return db
    .selectFrom('cards')
    .select(cardViewColumns)
    .where('user_id', '=', userId)
    .where('note_id', '=', noteId)
    .orderBy('ord')
    .orderBy('id')
    .execute();
}

/** Deletes cards of the user by id and uncounts them on their decks. Run it in a transaction. */
async function deleteCardRows(
  db: Kysely<Database>,
  userId: string,
  cards: readonly { id: string; deck_id: string; state: CardViewRow['state'] }[],
): Promise<void> {
  if (cards.length === 0) return;
  await forEachBatch(cards, INSERT_BATCH, async (batch) => {
    await db
      .deleteFrom('cards')
      .where('user_id', '=', userId)
      .where(
        'id',
        'in',
        batch.map((card) => card.id),
      )
      .execute();
  });
  const perDeck = new Map<string, Partial<Record<CardCounter, number>>>();
  for (const card of cards) {
    const changes = perDeck.get(card.deck_id) ?? {};
    const counter = counterFor(card.state);
    changes[counter] = (changes[counter] ?? 0) - 1;
    perDeck.set(card.deck_id, changes);
  }
  for (const [deckId, changes] of perDeck) await adjustDeckCounters(db, { userId, deckId }, changes);
}

/** The media name an occlusion card shows (cards.occlusion's image_url is `/media/NAME`), or null. */
function occlusionImage(occlusion: string | null | undefined): string | null {
  if (!occlusion) return null;
  const url = (JSON.parse(occlusion) as { image_url: string }).image_url;
  return url.startsWith('/media/') ? url.slice('/media/'.length) : null;
}

/**
 * Links occlusion cards to the user's image they show (card_media), and unlinks any other image from them: so the
 * image lives as long as a card shows it, and goes with the last one (migration 0008's trigger). Run it in a
 * transaction.
 */
async function linkOcclusionImages(
  db: Kysely<Database>,
  userId: string,
  cards: readonly { id: string; occlusion?: string | null }[],
): Promise<void> {
  const wanted = cards.flatMap((card) => {
    const name = occlusionImage(card.occlusion);
    return name ? [{ cardId: card.id, name }] : [];
  });
  if (wanted.length === 0) return;
  const names = [...new Set(wanted.map((link) => link.name))];
  const media = await db
    .selectFrom('media')
    .select(['id', 'name'])
    .where('user_id', '=', userId)
    .where('name', 'in', names)
    .execute();
  const idOf = new Map(media.map((row) => [row.name, row.id]));
  const links = wanted.flatMap((link) => {
    const mediaId = idOf.get(link.name);
    return mediaId ? [{ card_id: link.cardId, media_id: mediaId, user_id: userId }] : [];
  });
  await forEachBatch(links, INSERT_BATCH, async (batch) => {
    // Links to images the card no longer shows go first (the trigger then deletes an image no card shows).
    for (const link of batch) {
      await db
        .deleteFrom('card_media')
        .where('user_id', '=', userId)
        .where('card_id', '=', link.card_id)
        .where('media_id', '!=', link.media_id)
        .execute();
    }
    await db
      .insertInto('card_media')
      .values(batch)
      .onConflict((conflict) => conflict.columns(['card_id', 'media_id']).doNothing())
      .execute();
  });
}

/**
 * SQL for notes and their cards. Every query is scoped by the owner's user_id. Cards are written through
 * study-core's insertCards (which keeps the decks' counters), and a note and its cards change in one transaction.
 */
export function createNotesRepo(db: Kysely<Database>) {
  return {
    /** The user's note and its cards, or undefined. */
    /** Which of these media names are images of the user's. */
    async ownMediaNames(userId: string, names: readonly string[]): Promise<Set<string>> {
      if (names.length === 0) return new Set();
      const rows = await db
        .selectFrom('media')
        .select('name')
        .where('user_id', '=', userId)
        .where('name', 'in', [...names])
        .execute();
      return new Set(rows.map((row) => row.name));
    },

    async find(userId: string, noteId: string): Promise<NoteWithCardRows | undefined> {
      const note = await ownedNote(db, userId, noteId).selectAll().executeTakeFirst();
      if (!note) return undefined;
      return { note, cards: await cardsOfNote(db, userId, noteId) };
    },

    /**
     * Inserts notes and their cards into one deck of the user, all in one transaction (POST /notes, POST
     * /save-cards: at most 1,000 cards); false, with nothing written, when the deck is not theirs.
     */
    async insertIntoDeck(
      userId: string,
      deckId: string,
      notes: readonly NewNote[],
      images: readonly CardImageLink[] = [],
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        if (!(await hasDeck(trx, userId, deckId))) return false;
        const cards = notes.flatMap((item) => item.cards);
        await insertCards(
          trx,
          cards,
          notes.map((item) => item.note),
        );
        await linkOcclusionImages(trx, userId, cards);
        for (let start = 0; start < images.length; start += 500) {
          await trx
            .insertInto('card_media')
            .values(
              images.slice(start, start + 500).map((link) => ({
                card_id: link.cardId,
                media_id: link.mediaId,
                user_id: userId,
                position: link.position,
              })),
            )
            .execute();
        }
        return true;
      });
    },

    /** The ids of the user's images among these names (a name of someone else's is not found). */
    async ownMediaIds(userId: string, names: readonly string[]): Promise<Map<string, string>> {
      const found = new Map<string, string>();
      if (names.length === 0) return found;
      const rows = await db
        .selectFrom('media')
        .select(['id', 'name'])
        .where('user_id', '=', userId)
        .where('name', 'in', [...names])
        .execute();
      for (const row of rows) found.set(row.name, row.id);
      return found;
    },

    /**
     * Inserts many notes and their cards (imports): one transaction per batch of at most 500 cards (a note is never
     * split), yielding to the event loop between batches so other requests get the connection. The decks must
     * exist and be the user's (the caller made them); a failure leaves the batches before it written, as
     * interop.repo's import does (it removes the decks it made on failure).
     */
    async insertInBatches(notes: readonly NewNote[]): Promise<void> {
      for (const batch of noteBatches(notes)) {
        await db.transaction().execute(async (trx) => {
          const cards = batch.flatMap((item) => item.cards);
          await insertCards(
            trx,
            cards,
            batch.map((item) => item.note),
          );
          // An import's notes are all one user's.
          const userId = cards[0]?.user_id;
          if (userId) await linkOcclusionImages(trx, userId, cards);
        });
        await yieldToEventLoop();
      }
    },

    /**
     * Edits a note in one transaction: its fields, and its cards matched by card type and ordinal. A matched card
     * keeps its id, schedule and review history (only its question and answer change); a card whose match is gone is
     * deleted with its history; a new one is added as a new card. Undefined when the note is not the user's.
     */
    async update(userId: string, noteId: string, edit: NoteEdit): Promise<NoteWithCardRows | undefined> {
      return db.transaction().execute(async (trx) => {
        const note = await ownedNote(trx, userId, noteId).selectAll().executeTakeFirst();
        if (!note) return undefined;
        const existing = new Map(
          (
            await trx
              .selectFrom('cards')
              .select(['id', 'deck_id', 'state', 'card_type', 'ord', 'question', 'answer', 'occlusion'])
              .where('user_id', '=', userId)
              .where('note_id', '=', noteId)
              .execute()
          ).map((card) => [cardKey(card), card]),
        );
        const added = [];
        const shown: { id: string; occlusion: string | null }[] = [];
        for (const card of edit.cards) {
          const match = existing.get(cardKey(card));
          if (!match) {
            added.push(newCardRow({ id: edit.newId(), userId, deckId: note.deck_id, noteId }, card, edit.now, card));
            continue;
          }
          existing.delete(cardKey(card));
          const occlusion = occlusionColumn(card.occlusion);
          shown.push({ id: match.id, occlusion });
          if (match.question === card.question && match.answer === card.answer && match.occlusion === occlusion) {
            continue;
          }
          await trx
            .updateTable('cards')
            .set({ question: card.question, answer: card.answer, occlusion, updated_at: edit.now })
            .where('user_id', '=', userId)
            .where('id', '=', match.id)
            .execute();
        }
        await deleteCardRows(trx, userId, [...existing.values()]);
        await insertCards(trx, added, []);
        await linkOcclusionImages(trx, userId, [...shown, ...added]);
        await trx
          .updateTable('notes')
          .set({ fields: edit.fields, updated_at: edit.now })
          .where('user_id', '=', userId)
          .where('id', '=', noteId)
          .execute();
        await touchDeckContent(trx, userId, [note.deck_id]);
        return {
          note: { ...note, fields: edit.fields, updated_at: edit.now },
          cards: await cardsOfNote(trx, userId, noteId),
        };
      });
    },

    /** Deletes the note, its cards and their review history (and media links, by foreign key); false if not theirs. */
    async delete(userId: string, noteId: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const note = await ownedNote(trx, userId, noteId).select(['id', 'deck_id']).executeTakeFirst();
        if (!note) return false;
        await touchDeckContent(trx, userId, [note.deck_id]);
        const cards = await trx
          .selectFrom('cards')
          .select(['id', 'deck_id', 'state'])
          .where('user_id', '=', userId)
          .where('note_id', '=', noteId)
          .execute();
        await deleteCardRows(trx, userId, cards);
        await trx.deleteFrom('notes').where('user_id', '=', userId).where('id', '=', noteId).execute();
        return true;
      });
    },
  };
}

export type NotesRepo = ReturnType<typeof createNotesRepo>;
