import type { Card, Deck } from '@flashcards/shared/api-types';
import { limits } from '@flashcards/shared/limits';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { type FormEvent, type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { Button } from '../../components/button';
import { CardMarkdown } from '../../components/card-markdown';
import { DeckSelect } from '../../components/deck-select';
import { Modal } from '../../components/modal';
import { Notice } from '../../components/notice';
import { TextField } from '../../components/text-field';
import { errorDetail } from '../../lib/api-client';
import { useDecks, useSaveCards, useUpdateCard } from '../../lib/decks-api';

/** The question and answer as review shows them (the same markdown and math renderer), updated as one types. */
export function CardPreview({ question, answer }: { question: string; answer: string }) {
  return (
    <section className="card-preview" aria-label="Preview">
      <p className="deck-cards__label">Preview: question</p>
      {question.trim() ? <CardMarkdown text={question} /> : <p className="muted">{messages.cardPreviewEmpty}</p>}
      <p className="deck-cards__label">Preview: answer</p>
      {answer.trim() ? <CardMarkdown text={answer} /> : <p className="muted">{messages.cardPreviewEmpty}</p>}
    </section>
  );
}

interface SidesProps {
  question: string;
  answer: string;
  onQuestion: (value: string) => void;
  onAnswer: (value: string) => void;
  questionRef?: React.Ref<HTMLTextAreaElement>;
}

function CardSides({ question, answer, onQuestion, onAnswer, questionRef }: SidesProps) {
  return (
    <>
      <TextField
        multiline
        label="Question"
        ref={questionRef}
        rows={3}
        maxLength={limits.maxCardSideLength}
        value={question}
        onValue={onQuestion}
      />
      <TextField
        multiline
        label="Answer"
        rows={3}
        maxLength={limits.maxCardSideLength}
        value={answer}
        onValue={onAnswer}
      />
    </>
  );
}

const isSaveShortcut = (event: KeyboardEvent) => event.key === 'Enter' && (event.ctrlKey || event.metaKey);

interface CardFormShellProps {
  label: string;
  className: string;
  /** The submit button (and Enter in a one-line field). */
  onSubmit: () => Promise<void>;
  /** Ctrl+Enter (⌘+Enter) anywhere in the form. */
  onShortcut: () => Promise<void>;
  error: string | null;
  cancelLabel: string;
  onCancel: () => void;
  submitLabel: string;
  pending: boolean;
  /** Text typed that Escape would lose: Escape then asks first. */
  dirty: boolean;
  children: ReactNode;
}

/**
 * The frame both card forms share: the save shortcut, the error, and Cancel/Close beside the save button. Escape
 * cancels the form (asking first when something was typed) and goes no further, so a dialog around it stays open.
 */
function CardFormShell({
  label,
  className,
  onSubmit,
  onShortcut,
  error,
  dirty,
  children,
  ...actions
}: CardFormShellProps) {
  const [confirming, setConfirming] = useState(false);
  const keepRef = useRef<HTMLButtonElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (confirming) keepRef.current?.focus();
  }, [confirming]);

  function keepEditing() {
    setConfirming(false);
    returnTo.current?.focus();
  }

  return (
    <form
      className={className}
      aria-label={label}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void onSubmit();
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          // The dialog around the form listens on the document: it must not see this Escape.
          event.stopPropagation();
          event.preventDefault();
          if (!dirty) actions.onCancel();
          else if (confirming) keepEditing();
          else {
            returnTo.current = event.target instanceof HTMLElement ? event.target : null;
            setConfirming(true);
          }
          return;
        }
        if (!isSaveShortcut(event)) return;
        event.preventDefault();
        void onShortcut();
      }}
    >
      {children}
      {confirming && (
        <div className="card-form__discard">
          <Notice tone="info">{messages.discardCardEditConfirm}</Notice>
          <div className="form__actions">
            <Button ref={keepRef} variant="secondary" small onClick={keepEditing}>
              {messages.keepEditing}
            </Button>
            <Button variant="danger" small onClick={actions.onCancel}>
              {messages.discardChanges}
            </Button>
          </div>
        </div>
      )}
      {error && <Notice tone="error">{error}</Notice>}
      <div className="form__actions">
        <Button variant="secondary" small onClick={actions.onCancel}>
          {actions.cancelLabel}
        </Button>
        <Button type="submit" small pending={actions.pending} pendingLabel="Saving...">
          {actions.submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** Edits a card's text, with a live preview. */
export function CardEditor({ card, onDone }: { card: Card; onDone: () => void }) {
  const [question, setQuestion] = useState(card.question);
  const [answer, setAnswer] = useState(card.answer);
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateCard();

  async function save() {
    if (!question.trim() || !answer.trim()) {
      setError(messages.cardSidesEmpty);
      return;
    }
    setError(null);
    try {
      await update.mutateAsync({ id: card._id, question: question.trim(), answer: answer.trim() });
      onDone();
    } catch {
      setError(messages.reviewCardUpdateFailed);
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
      dirty={question !== card.question || answer !== card.answer}
    >
      <CardSides question={question} answer={answer} onQuestion={setQuestion} onAnswer={setAnswer} />
      <CardPreview question={question} answer={answer} />
    </CardFormShell>
  );
}

interface AddCardFormProps {
  /** The deck to add to; without it the form offers a choice of the user's decks. */
  deck?: Deck;
  onClose: () => void;
}

/**
 * Adds a card by hand (POST /save-cards with one card), with a live preview. "Add card" saves and closes;
 * Ctrl+Enter (⌘+Enter) saves and keeps the form open, empty, for the next card.
 */
export function AddCardForm({ deck, onClose }: AddCardFormProps) {
  const decks = useDecks();
  const [deckId, setDeckId] = useState(deck?._id ?? '');
  const [question, setQuestion] = useState('');
  const [answer, setAnswer] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const save = useSaveCards();
  const questionRef = useRef<HTMLTextAreaElement>(null);
  const chosen = deck?._id ?? (deckId || decks.data?.[0]?._id || '');
  const deckName = deck?.name ?? decks.data?.find((item) => item._id === chosen)?.name ?? '';

  async function submit(keepOpen: boolean) {
    if (save.isPending) return;
    setSaved(null);
    if (!chosen) {
      setError(messages.noDeckSelected);
      return;
    }
    if (!question.trim() || !answer.trim()) {
      setError(messages.cardSidesEmpty);
      return;
    }
    setError(null);
    try {
      await save.mutateAsync({ deckId: chosen, cards: [{ question: question.trim(), answer: answer.trim() }] });
    } catch (caught) {
      setError(errorDetail(caught, messages.addCardFailed));
      return;
    }
    if (!keepOpen) {
      onClose();
      return;
    }
    setQuestion('');
    setAnswer('');
    setSaved(fillMessage(messages.addCardSaved, { deck: deckName }));
    questionRef.current?.focus();
  }

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
      pending={save.isPending}
      dirty={question.trim() !== '' || answer.trim() !== ''}
    >
      {!deck && <DeckSelect decks={decks.data ?? []} value={chosen} onValue={setDeckId} />}
      <CardSides
        question={question}
        answer={answer}
        onQuestion={setQuestion}
        onAnswer={setAnswer}
        questionRef={questionRef}
      />
      <CardPreview question={question} answer={answer} />
      <p className="muted add-card__hint">{messages.addCardHint}</p>
      {saved && <Notice tone="success">{saved}</Notice>}
    </CardFormShell>
  );
}

/** "Add Card" from the deck list: the form in a dialog, with a choice of deck. */
export function AddCardModal({ onClose }: { onClose: () => void }) {
  return (
    <Modal title={messages.addCard} onClose={onClose}>
      <AddCardForm onClose={onClose} />
    </Modal>
  );
}
