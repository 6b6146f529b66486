import { messages } from '@flashcards/shared/messages';
import { type NoteType, noteLimits, noteTypes, type TextNoteType } from '@flashcards/shared/notes';
import { type KeyboardEvent, type RefObject, useId, useLayoutEffect, useRef } from 'react';
import { Button } from '../../components/button';
import { TextField } from '../../components/text-field';
import { clozeShortcut, wrapInCloze } from './cloze-editing';
import type { NoteDraft } from './note-draft';
import { RadioChoice } from './radio-choice';

export const noteTypeNames: Record<NoteType, string> = {
  basic: messages.noteTypeBasic,
  reversed: messages.noteTypeReversed,
  cloze: messages.noteTypeCloze,
  occlusion: messages.noteTypeOcclusion,
};

/** The note type, as radio buttons (arrow keys move between them). */
export function NoteTypePicker({ value, onValue }: { value: NoteType; onValue: (type: NoteType) => void }) {
  return (
    <RadioChoice
      legend={messages.noteTypeLegend}
      options={noteTypes.map((type) => ({ value: type, label: noteTypeNames[type] }))}
      value={value}
      onValue={onValue}
    />
  );
}

const labels: Record<TextNoteType, [string, string]> = {
  basic: ['Question', 'Answer'],
  reversed: [messages.noteFrontLabel, messages.noteBackLabel],
  cloze: [messages.clozeTextLabel, messages.clozeExtraLabel],
};

interface NoteFieldsProps {
  draft: NoteDraft;
  onDraft: (draft: NoteDraft) => void;
  /** The first text box (focused again after a save that keeps the form open). */
  firstRef: RefObject<HTMLTextAreaElement | null>;
}

/** The note's two text boxes, named for its type; a cloze text gets the Cloze button and Anki's shortcut. */
export function NoteFields({ draft, onDraft, firstRef }: NoteFieldsProps) {
  const hintId = useId();
  const [firstLabel, secondLabel] = labels[draft.type];
  const cloze = draft.type === 'cloze';
  // The caret to restore once React has written a wrapped text into the box.
  const caret = useRef<number | null>(null);
  useLayoutEffect(() => {
    const box = firstRef.current;
    if (caret.current === null || !box) return;
    box.setSelectionRange(caret.current, caret.current);
    caret.current = null;
  });

  function wrap(sameNumber: boolean) {
    const box = firstRef.current;
    if (!box) return;
    const edit = wrapInCloze(box.value, box.selectionStart, box.selectionEnd, sameNumber);
    box.focus();
    box.setSelectionRange(edit.from, edit.to);
    // insertText keeps the wrap in the browser's undo history (Ctrl+Z takes it back); where it is missing, the
    // text is set, and the caret put back after React writes it.
    const inserted =
      typeof document.execCommand === 'function' && document.execCommand('insertText', false, edit.replacement);
    if (inserted) box.setSelectionRange(edit.selectionStart, edit.selectionEnd);
    else {
      caret.current = edit.selectionStart;
      onDraft({ ...draft, first: edit.text });
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    const shortcut = clozeShortcut(event);
    if (!shortcut) return;
    event.preventDefault();
    wrap(shortcut === 'same');
  }

  return (
    <>
      <TextField
        multiline
        label={firstLabel}
        ref={firstRef}
        rows={cloze ? 4 : 3}
        maxLength={noteLimits.maxFieldLength}
        value={draft.first}
        onValue={(first) => onDraft({ ...draft, first })}
        onKeyDown={cloze ? onKeyDown : undefined}
        aria-describedby={cloze ? hintId : undefined}
      />
      {cloze && (
        <div className="cloze-tools">
          <Button
            variant="secondary"
            small
            aria-keyshortcuts="Control+Shift+C Control+Shift+Alt+C"
            aria-describedby={hintId}
            // The text box keeps its focus and selection while the button is pressed.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => wrap(false)}
          >
            {messages.clozeButton}
          </Button>
          <p id={hintId} className="muted cloze-tools__hint">
            {messages.clozeHint}
          </p>
        </div>
      )}
      <TextField
        multiline
        label={secondLabel}
        rows={cloze ? 2 : 3}
        maxLength={noteLimits.maxFieldLength}
        value={draft.second}
        onValue={(second) => onDraft({ ...draft, second })}
      />
    </>
  );
}
