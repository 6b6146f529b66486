import type { Card, Deck } from '@flashcards/shared/api-types';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { useRef, useState } from 'react';
import { DeckSelect } from '../../components/deck-select';
import { Modal } from '../../components/modal';
import { Notice } from '../../components/notice';
import { errorCode, errorDetail } from '../../lib/api-client';
import { ownDecks, useDecks, useUpdateCard } from '../../lib/decks-api';
import { CardFormShell } from './card-form-shell';
import { NotePreview } from './card-preview';
import { draftContent, type NoteDraft } from './note-draft';
import { NoteEditor } from './note-editor';
import { NoteFields, NoteTypePicker } from './note-fields';
import { useCreateNote } from './notes-api';
import { LazyOcclusionNoteForm } from './occlusion-note-lazy';

/**
 * Edits a basic card's question and answer (PUT /cards/{id}), with a live preview. A card of a note with several
 * cards is edited through its note: the server says so (`edit_note_instead`) and `onNoteInstead` opens the note.
 */
export function CardEditor({
  card,
  onDone,
  onNoteInstead,
}: {
  card: Card;
  onDone: () => void;
  onNoteInstead: () => void;
}) {
  const [draft, setDraft] = useState<NoteDraft>({ type: 'basic', first: card.question, second: card.answer });
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateCard();
  const firstRef = useRef<HTMLTextAreaElement>(null);

  async function save() {
    const question = draft.first.trim();
    const answer = draft.second.trim();
    if (!question || !answer) {
      setError(messages.cardSidesEmpty);
      return;
    }
    setError(null);
    try {
      await update.mutateAsync({ id: card._id, question, answer });
      onDone();
    } catch (caught) {
      const code = errorCode(caught);
      if (code === 'edit_note_instead') onNoteInstead();
      else setError(code === 'linked_deck_read_only' ? messages.linkedDeckReadOnly : messages.reviewCardUpdateFailed);
    }
  }

  return (
    <CardFormShell
      className="form"
      label="Edit card"
      onSubmit={save}
      onShortcut={save}
      error={error}
      cancelLabel="Cancel"
      onCancel={onDone}
      submitLabel="Save card"
      pending={update.isPending}
      dirty={draft.first !== card.question || draft.second !== card.answer}
    >
      <NoteFields draft={draft} onDraft={setDraft} firstRef={firstRef} />
      <NotePreview draft={draft} />
    </CardFormShell>
  );
}

/**
 * Opens a card for editing: a reversed or cloze card (or any card of a note known to hold several) opens its note;
 * a basic card edits as a card, and turns to its note if the server says it belongs to one with several cards.
 */
export function EditCard({ card, ofNote = false, onDone }: { card: Card; ofNote?: boolean; onDone: () => void }) {
  const [asNote, setAsNote] = useState<'known' | 'told' | null>(
    ofNote || card.card_type !== 'basic' || card.ord > 0 ? 'known' : null,
  );
  if (asNote === null) return <CardEditor card={card} onDone={onDone} onNoteInstead={() => setAsNote('told')} />;
  // Told by the server: the edit typed is not carried over, so the editor says why it changed.
  return (
    <NoteEditor noteId={card.note_id} onDone={onDone} notice={asNote === 'told' ? messages.editNoteInstead : null} />
  );
}

interface AddCardFormProps {
  /** The deck to add to; without it the form offers a choice of the user's decks. */
  deck?: Deck;
  /** Opens on an image occlusion note of this image (a media name of the user's: a generated card's figure). */
  occlusionImage?: string;
  onClose: () => void;
}

/**
 * Adds a note by hand (POST /notes): Basic, Basic and reversed, or Cloze, with a live preview of every card it makes;
 * Image occlusion opens the mask editor in the same place.
 * "Add card" saves and closes; Ctrl+Enter (⌘+Enter) saves and keeps the form open, empty, for the next note of the
 * same type.
 */
export function AddCardForm({ deck, occlusionImage, onClose }: AddCardFormProps) {
  const decks = useDecks();
  const [deckId, setDeckId] = useState(deck?._id ?? '');
  const [draft, setDraft] = useState<NoteDraft>({ type: 'basic', first: '', second: '' });
  const [occlusion, setOcclusion] = useState(occlusionImage !== undefined);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const create = useCreateNote();
  const firstRef = useRef<HTMLTextAreaElement>(null);
  const choices = ownDecks(decks.data);
  const chosen = deck?._id ?? (deckId || choices[0]?._id || '');
  const deckName = deck?.name ?? choices.find((item) => item._id === chosen)?.name ?? '';

  async function submit(keepOpen: boolean) {
    if (create.isPending) return;
    setSaved(null);
    if (!chosen) {
      setError(messages.noDeckSelected);
      return;
    }
    if (draft.type === 'basic' && (!draft.first.trim() || !draft.second.trim())) {
      setError(messages.cardSidesEmpty);
      return;
    }
    setError(null);
    let count: number;
    try {
      count = (await create.mutateAsync({ deckId: chosen, ...draftContent(draft) })).cards.length;
    } catch (caught) {
      setError(errorDetail(caught, messages.addCardFailed));
      return;
    }
    if (!keepOpen) {
      onClose();
      return;
    }
    setDraft({ type: draft.type, first: '', second: '' });
    setSaved(fillMessage(count === 1 ? messages.addCardSaved : messages.addNoteSaved, { deck: deckName, count }));
    firstRef.current?.focus();
  }

  const chooser = (
    <>
      {!deck && <DeckSelect decks={choices} value={chosen} onValue={setDeckId} />}
      <NoteTypePicker
        value={occlusion ? 'occlusion' : draft.type}
        onValue={(type) => {
          setError(null);
          setOcclusion(type === 'occlusion');
          if (type !== 'occlusion') setDraft({ ...draft, type });
        }}
      />
    </>
  );
  if (occlusion)
    return (
      <LazyOcclusionNoteForm
        deckId={chosen}
        before={chooser}
        onDone={onClose}
        {...(occlusionImage ? { startImage: occlusionImage } : {})}
      />
    );

  return (
    <CardFormShell
      className="form add-card"
      label="Add card"
      onSubmit={() => submit(false)}
      onShortcut={() => submit(true)}
      error={error}
      cancelLabel="Close"
      onCancel={onClose}
      submitLabel="Add card"
      pending={create.isPending}
      dirty={draft.first.trim() !== '' || draft.second.trim() !== ''}
    >
      {chooser}
      <NoteFields draft={draft} onDraft={setDraft} firstRef={firstRef} />
      <NotePreview draft={draft} />
      <p className="muted add-card__hint">{messages.addCardHint}</p>
      {saved && <Notice tone="success">{saved}</Notice>}
    </CardFormShell>
  );
}

/** "Add Card" from the deck list: the form in a dialog, with a choice of deck. */
export function AddCardModal({
  occlusionImage,
  onClose,
}: {
  occlusionImage?: string | undefined;
  onClose: () => void;
}) {
  return (
    <Modal title={messages.addCard} onClose={onClose}>
      <AddCardForm onClose={onClose} {...(occlusionImage ? { occlusionImage } : {})} />
    </Modal>
  );
}
