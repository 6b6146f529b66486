import type { Note } from '@flashcards/shared/api-types';
import { fillMessage, messages } from '@flashcards/shared/messages';
import type { OcclusionFields } from '@flashcards/shared/notes';
import { useRef, useState } from 'react';
import { Button } from '../../components/button';
import { Notice } from '../../components/notice';
import { errorDetail } from '../../lib/api-client';
import { CardFormShell } from './card-form-shell';
import { NotePreview } from './card-preview';
import { draftContent, draftOfNote, droppedClozes, type NoteDraft } from './note-draft';
import { NoteFields, noteTypeNames } from './note-fields';
import { useNote, useUpdateNote } from './notes-api';
import { LazyOcclusionNoteForm } from './occlusion-note-lazy';

/**
 * Edits a note (a reversed or cloze card opens its note here): its fields with the preview of every card, saved
 * with PUT /notes/{id} (an image occlusion note opens the mask editor). The type stays; a cloze number taken out of the text is named before saving deletes its card.
 */
export function NoteEditor({
  noteId,
  onDone,
  notice = null,
}: {
  noteId: string;
  onDone: () => void;
  /** Shown above the fields: why the note opened instead of its card. */
  notice?: string | null;
}) {
  const note = useNote(noteId);
  if (note.data?.type === 'occlusion') {
    const fields = note.data.fields as OcclusionFields;
    return (
      <LazyOcclusionNoteForm
        note={{ id: note.data._id, fields }}
        before={notice && <Notice tone="info">{notice}</Notice>}
        onDone={onDone}
      />
    );
  }
  if (note.isError || (note.data && !draftOfNote(note.data))) {
    return (
      <div className="form">
        <Notice tone="error">{note.isError ? messages.noteLoadFailed : messages.noteTypeNotYet}</Notice>
        <div className="form__actions">
          <Button variant="secondary" small onClick={onDone}>
            Cancel
          </Button>
        </div>
      </div>
    );
  }
  if (!note.data) return <p role="status">{messages.loading}</p>;
  return <NoteEditorForm note={note.data} onDone={onDone} notice={notice} />;
}

function NoteEditorForm({ note, onDone, notice }: { note: Note; onDone: () => void; notice: string | null }) {
  const initial = draftOfNote(note) as NoteDraft;
  const [draft, setDraft] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateNote();
  const firstRef = useRef<HTMLTextAreaElement>(null);
  const dropped = draft.type === 'cloze' ? droppedClozes(initial.first, draft.first) : [];

  async function save() {
    if (update.isPending) return;
    setError(null);
    try {
      await update.mutateAsync({ id: note._id, fields: draftContent(draft).fields });
      onDone();
    } catch (caught) {
      setError(errorDetail(caught, messages.noteSaveFailed));
    }
  }

  return (
    <CardFormShell
      className="form"
      label={messages.editNoteFormLabel}
      onSubmit={save}
      onShortcut={save}
      error={error}
      cancelLabel="Cancel"
      onCancel={onDone}
      submitLabel={messages.saveNote}
      pending={update.isPending}
      dirty={draft.first !== initial.first || draft.second !== initial.second}
    >
      {notice && <Notice tone="info">{notice}</Notice>}
      <p className="note-editor__type">
        {messages.noteTypeLegend}: {noteTypeNames[draft.type]}
      </p>
      <NoteFields draft={draft} onDraft={setDraft} firstRef={firstRef} />
      {dropped.length > 0 && (
        <Notice tone="info">
          {fillMessage(messages.noteDropsClozes, { numbers: dropped.map((number) => `c${number}`).join(', ') })}
        </Notice>
      )}
      <NotePreview draft={draft} />
    </CardFormShell>
  );
}
