import type { CardSource, Note, NoteWithCards } from '@flashcards/shared/api-types';
import { checkNote, type NoteProblem, noteProblemText } from '@flashcards/shared/notes';
import type { Clock } from '../../adapters/clock';
import { type IdGenerator, isId } from '../../adapters/ids';
import { type AppError, errors } from '../../http/app-error';
import { newCardRow, toCard } from '../study-core/card-state';
import { basicNoteOf } from '../study-core/deck-counters';
import type { DeckLookup } from '../study-core/deck-scope';
import { type NewNote, newNote, toNote } from '../study-core/note-rows';
import type { UserLimits } from '../study-core/user-limits';
import { cardKey, type NotesRepo, type NoteWithCardRows } from './notes.repo';

export interface NotesServiceDeps {
  notes: NotesRepo;
  decks: DeckLookup;
  clock: Clock;
  newId: IdGenerator;
  userLimits: UserLimits;
}

/** An item of POST /save-cards: a basic card's text, or a note of any type. */
export type SaveItem = ({ question: string; answer: string } | { type: unknown; fields: unknown }) & {
  images?: string[] | undefined;
  source?: CardSource | undefined;
};

/** 422 validation_failed whose detail is the note's problem, naming the field it is about. */
export function noteProblemError(problem: NoteProblem, field: string): AppError {
  const detail = noteProblemText(problem);
  return errors.validationFailed({ detail, errors: [{ field, message: detail }] });
}

/**
 * The notes and card rows of POST /save-cards' items, all new in one deck: `{ question, answer }` a basic note of one
 * card (whose note id is the card's), `{ type, fields }` a note of that type. Throws the first item's problem
 * (`cards.N.fields`) before anything is written.
 */
export function notesOfItems(
  ids: { userId: string; deckId: string; newId: () => string },
  items: readonly SaveItem[],
  now: number,
): NewNote[] {
  return items.map((item, index) => {
    // Every card of the note keeps the source of the generated card it was saved from.
    const source = item.source ? { source: JSON.stringify(item.source) } : {};
    if ('question' in item) {
      const card = {
        ...newCardRow({ id: ids.newId(), userId: ids.userId, deckId: ids.deckId }, item, now),
        ...source,
      };
      return { note: basicNoteOf(card), cards: [card] };
    }
    const checked = checkNote(item.type, item.fields);
    if (!checked.ok) throw noteProblemError(checked.problem, `cards.${index}.fields`);
    const made = newNote(ids, checked.note, checked.cards, now);
    return { ...made, cards: made.cards.map((card) => ({ ...card, ...source })) };
  });
}

/** The image names of occlusion notes among notes about to be written. */
function occlusionImages(contents: readonly { type: string; fields: unknown }[]): string[] {
  return [
    ...new Set(
      contents.flatMap((content) =>
        content.type === 'occlusion' ? [(content.fields as { image: string }).image] : [],
      ),
    ),
  ];
}

/**
 * 422 when an occlusion note's image is not one of the user's images (someone else's, deleted, or never uploaded):
 * `field` names where the note is in the request.
 */
export async function assertOwnImages(
  notes: Pick<NotesRepo, 'ownMediaNames'>,
  userId: string,
  contents: readonly { type: string; fields: unknown }[],
  field: (index: number) => string,
): Promise<void> {
  const names = occlusionImages(contents);
  if (names.length === 0) return;
  const own = await notes.ownMediaNames(userId, names);
  for (const [index, content] of contents.entries()) {
    if (content.type === 'occlusion' && !own.has((content.fields as { image: string }).image)) {
      throw noteProblemError({ message: 'occlusionImageNotFound' }, field(index));
    }
  }
}

function withCards(found: NoteWithCardRows): NoteWithCards {
  return {
    note: toNote(
      found.note,
      found.cards.map((card) => card.id),
    ),
    cards: found.cards.map(toCard),
  };
}

/**
 * Notes of one user (POST /notes, GET/PUT/DELETE /notes/{id}). A note or deck id that is malformed, missing or
 * someone else's is the same 404; a note that breaks a rule of its type is 422 validation_failed, nothing written.
 */
export function createNotesService(deps: NotesServiceDeps) {
  const { notes, clock } = deps;

  async function requireNote(userId: string, noteId: string): Promise<NoteWithCardRows> {
    const found = isId(noteId) ? await notes.find(userId, noteId) : undefined;
    if (!found) throw errors.noteNotFound();
    return found;
  }

  return {
    async create(userId: string, input: { deck_id: string; type: unknown; fields: unknown }): Promise<NoteWithCards> {
      const checked = checkNote(input.type, input.fields);
      if (!checked.ok) throw noteProblemError(checked.problem, 'fields');
      if (!isId(input.deck_id) || !(await deps.decks.exists(userId, input.deck_id))) throw errors.deckNotFound();
      await assertOwnImages(notes, userId, [checked.note], () => 'fields.image');
      // The cap counts cards: a cloze note of three cards needs room for three.
      await deps.userLimits.assertRoom(userId, { cards: checked.cards.length });
      const item = newNote(
        { userId, deckId: input.deck_id, newId: deps.newId },
        checked.note,
        checked.cards,
        clock.now(),
      );
      if (!(await notes.insertIntoDeck(userId, input.deck_id, [item]))) throw errors.deckNotFound();
      const saved = await notes.find(userId, item.note.id);
      if (!saved) throw errors.noteNotFound();
      return withCards(saved);
    },

    async get(userId: string, noteId: string): Promise<Note> {
      const found = await requireNote(userId, noteId);
      return toNote(
        found.note,
        found.cards.map((card) => card.id),
      );
    },

    /** New fields for the note (its type stays): cards still made keep their history (notes.repo's update). */
    async update(userId: string, noteId: string, fields: unknown): Promise<NoteWithCards> {
      const found = await requireNote(userId, noteId);
      const checked = checkNote(found.note.type, fields);
      if (!checked.ok) throw noteProblemError(checked.problem, 'fields');
      await assertOwnImages(notes, userId, [checked.note], () => 'fields.image');
      const kept = new Set(found.cards.map(cardKey));
      const added = checked.cards.filter((card) => !kept.has(cardKey(card))).length;
      await deps.userLimits.assertRoom(userId, { cards: added });
      const updated = await notes.update(userId, noteId, {
        fields: JSON.stringify(checked.note.fields),
        cards: checked.cards,
        now: clock.now(),
        newId: deps.newId,
      });
      if (!updated) throw errors.noteNotFound();
      return withCards(updated);
    },

    async delete(userId: string, noteId: string): Promise<void> {
      const deleted = isId(noteId) && (await notes.delete(userId, noteId));
      if (!deleted) throw errors.noteNotFound();
    },
  };
}

export type NotesService = ReturnType<typeof createNotesService>;
