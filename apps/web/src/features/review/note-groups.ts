import type { Card } from '@flashcards/shared/api-types';
import type { NoteType } from '@flashcards/shared/notes';

/** A note's cards as the Cards tab lists them: one row per note, its cards in ord order. */
export interface NoteGroup {
  noteId: string;
  /** The note's type as its cards tell it (a card does not carry its note's type). */
  type: NoteType;
  cards: Card[];
  /** The number the Cards tab gives the group's first card ("Card 7"); the others follow on. */
  firstNumber: number;
}

/** The note type a note's cards show: a cloze, occlusion or reverse card, or more than one card, say which. */
function typeOfCards(cards: readonly Card[]): NoteType {
  if (cards.some((card) => card.card_type === 'cloze')) return 'cloze';
  if (cards.some((card) => card.card_type === 'occlusion')) return 'occlusion';
  if (cards.length > 1 || cards.some((card) => card.card_type === 'reverse')) return 'reversed';
  return 'basic';
}

/**
 * Groups a deck's cards (in the order the pages brought them) by note: each note where its first card came, its
 * cards by ord, so a cloze note's cards sit together even when a later edit added one at the end of the deck.
 */
export function groupByNote(cards: readonly Card[]): NoteGroup[] {
  const byNote = new Map<string, Card[]>();
  for (const card of cards) {
    const siblings = byNote.get(card.note_id);
    if (siblings) siblings.push(card);
    else byNote.set(card.note_id, [card]);
  }
  const groups: NoteGroup[] = [];
  let next = 1;
  for (const [noteId, noteCards] of byNote) {
    noteCards.sort((a, b) => a.ord - b.ord);
    groups.push({ noteId, type: typeOfCards(noteCards), cards: noteCards, firstNumber: next });
    next += noteCards.length;
  }
  return groups;
}
