import type { Note } from '@flashcards/shared/api-types';
import type { NoteContent, NoteFields, RenderedCard } from '@flashcards/shared/notes';
import type { Selectable } from 'kysely';
import type { NotesTable } from '../../db/schema';
import { isoTime } from '../../http/iso-time';
import { type NewCardRow, newCardRow } from './card-state';
import { INSERT_BATCH, type NewNoteRow } from './deck-counters';

/**
 * Notes as rows (migration 0012): a note and the card rows it makes. Every card belongs to one note; a card written
 * without one (`insertCards(db, rows)`, deck-counters.ts) gets a basic note of its own whose id is the card's id,
 * as the migration gave every card made before notes.
 */

export type NoteRow = Selectable<NotesTable>;
export type { NewNoteRow };

/** A note to insert with its cards. */
export interface NewNote {
  note: NewNoteRow;
  cards: NewCardRow[];
}

/** A new note and its cards (all new, due from `now`), with ids from `newId`: what POST /notes and imports write. */
export function newNote(
  ids: { userId: string; deckId: string; newId: () => string },
  content: NoteContent,
  cards: readonly RenderedCard[],
  now: number,
): NewNote {
  const noteId = ids.newId();
  return {
    note: {
      id: noteId,
      user_id: ids.userId,
      deck_id: ids.deckId,
      type: content.type,
      fields: JSON.stringify(content.fields),
      created_at: now,
      updated_at: now,
    },
    cards: cards.map((card) =>
      newCardRow({ id: ids.newId(), userId: ids.userId, deckId: ids.deckId, noteId }, card, now, card),
    ),
  };
}

/**
 * Notes grouped so that each group holds at most `maxCards` cards (a note is never split; a note with more cards is
 * a group of its own): one group per transaction keeps an import's transactions short.
 */
export function noteBatches(notes: readonly NewNote[], maxCards = INSERT_BATCH): NewNote[][] {
  const batches: NewNote[][] = [];
  let current: NewNote[] = [];
  let cards = 0;
  for (const item of notes) {
    if (current.length > 0 && cards + item.cards.length > maxCards) {
      batches.push(current);
      current = [];
      cards = 0;
    }
    current.push(item);
    cards += item.cards.length;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** A note row and its cards' ids (in ord order) as the API's Note. */
export function toNote(row: NoteRow, cardIds: readonly string[]): Note {
  return {
    _id: row.id,
    deck_id: row.deck_id,
    type: row.type,
    fields: JSON.parse(row.fields) as NoteFields,
    card_ids: [...cardIds],
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
  };
}
