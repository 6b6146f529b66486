import type { Note, NoteWithCards } from '@flashcards/shared/api-types';
import type { CreatableNoteContent, NoteFields } from '@flashcards/shared/notes';
import type { QueryKey } from '@tanstack/react-query';
import { useApiGet, useApiMutation } from '../../lib/api-hooks';

export const noteKeys = {
  note: (id: string) => ['notes', id] as const,
};

/** After a note is written: its cards, the decks' lists and counts, the queues and the note itself are stale. */
const noteData: readonly QueryKey[] = [['decks'], ['cards'], ['notes']];

/** One note (GET /notes/{id}); nothing is asked while `id` is null. */
export function useNote(id: string | null) {
  return useApiGet<Note>(noteKeys.note(id ?? ''), id ? `/notes/${encodeURIComponent(id)}` : null);
}

/** POST /notes: a note of any type, with the cards it makes. */
export function useCreateNote() {
  return useApiMutation(
    (api, input: CreatableNoteContent & { deckId: string }) =>
      api.post<NoteWithCards>('/notes', { json: { deck_id: input.deckId, type: input.type, fields: input.fields } }),
    noteData,
  );
}

/** PUT /notes/{id}: new fields (the type stays); cards whose cloze is still there keep their history. */
export function useUpdateNote() {
  return useApiMutation(
    (api, input: { id: string; fields: NoteFields }) =>
      api.request<NoteWithCards>(`/notes/${encodeURIComponent(input.id)}`, {
        method: 'PUT',
        json: { fields: input.fields },
      }),
    noteData,
  );
}
