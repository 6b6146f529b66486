import type { Note } from '@flashcards/shared/api-types';
import { fillMessage, messages } from '@flashcards/shared/messages';
import {
  type BasicFields,
  type ClozeFields,
  checkNote,
  noteProblemText,
  parseCloze,
  type RenderedCard,
  renderNote,
  type TextNoteContent,
  type TextNoteType,
} from '@flashcards/shared/notes';

/**
 * What the learner is writing: the note's type and its two text boxes. The boxes keep their text when the type
 * changes, as in Anki: Question and Answer (basic), Front and Back (reversed), Text and Extra (cloze).
 */
export interface NoteDraft {
  type: TextNoteType;
  first: string;
  second: string;
}

/** The note to send: its type and fields, trimmed, an empty Extra left out. */
export function draftContent({ type, first, second }: NoteDraft): TextNoteContent {
  if (type === 'cloze') {
    const extra = second.trim();
    return { type, fields: extra ? { text: first.trim(), extra } : { text: first.trim() } };
  }
  return { type, fields: { front: first.trim(), back: second.trim() } };
}

/**
 * The draft of a stored note, or null for a type this form does not write (image occlusion). The API gives `fields`
 * of the shape its `type` says (api-types keeps the two apart, so it is read here by type).
 */
export function draftOfNote(note: Pick<Note, 'type' | 'fields'>): NoteDraft | null {
  switch (note.type) {
    case 'basic':
    case 'reversed': {
      const fields = note.fields as BasicFields;
      return { type: note.type, first: fields.front, second: fields.back };
    }
    case 'cloze': {
      const fields = note.fields as ClozeFields;
      return { type: 'cloze', first: fields.text, second: fields.extra ?? '' };
    }
    case 'occlusion':
      return null;
  }
}

/** The preview: the cards the note will make, or why it makes none yet (null while nothing is written). */
export interface DraftPreview {
  cards: RenderedCard[];
  problem: string | null;
}

/**
 * The cards the draft makes, rendered by the shared renderer the server uses (so the preview is what review
 * shows). A cloze text that cannot be saved yet says why, in the words the server would answer with.
 */
export function previewDraft(draft: NoteDraft): DraftPreview {
  if (!draft.first.trim() && !draft.second.trim()) return { cards: [], problem: null };
  if (draft.type !== 'cloze') {
    return {
      cards: renderNote({ type: draft.type, fields: { front: draft.first, back: draft.second } }),
      problem: null,
    };
  }
  if (!draft.first.trim()) return { cards: [], problem: null };
  const { fields } = draftContent(draft);
  const checked = checkNote('cloze', fields);
  return checked.ok
    ? { cards: checked.cards, problem: null }
    : { cards: [], problem: noteProblemText(checked.problem) };
}

/** A preview card's title: its place in the note, and which cloze or direction it is. */
export function previewCardTitle(card: RenderedCard, index: number): string {
  const n = index + 1;
  if (card.card_type === 'cloze') return fillMessage(messages.previewCardCloze, { n, number: card.ord + 1 });
  if (card.card_type === 'reverse') return fillMessage(messages.previewCardReverse, { n });
  return fillMessage(messages.previewCardHeading, { n });
}

/** The cloze numbers of `before` that `after` no longer has: saving deletes their cards (and their history). */
export function droppedClozes(before: string, after: string): number[] {
  const old = parseCloze(before);
  const now = parseCloze(after);
  if (!old.ok || !now.ok) return [];
  return old.numbers.filter((number) => !now.numbers.includes(number));
}
