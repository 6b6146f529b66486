import type { Card, Deck } from '@flashcards/shared/api-types';
import { limits } from '@flashcards/shared/limits';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { type FormEvent, type KeyboardEvent, useId, useRef, useState } from 'react';
import { Button } from '../../components/button';
import { CardMarkdown } from '../../components/card-markdown';
import { Modal } from '../../components/modal';
import { Notice } from '../../components/notice';
import { TextAreaField } from '../../components/text-field';
import { errorDetail } from '../../lib/api-client';
import { useDecks, useSaveCards, useUpdateCard } from '../decks/decks-api';

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
      <TextAreaField
        label="Question"
        ref={questionRef}
        rows={3}
        maxLength={limits.maxCardSideLength}
        value={question}
        onValue={onQuestion}
      />
      <TextAreaField label="Answer" rows={3} maxLength={limits.maxCardSideLength} value={answer} onValue={onAnswer} />
    </>
  );
}

const isSaveShortcut = (event: KeyboardEvent) => event.key === 'Enter' && (event.ctrlKey || event.metaKey);

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
    <form
      className="form"
      aria-label="Edit card"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void save();
      }}
      onKeyDown={(event) => {
        if (!isSaveShortcut(event)) return;
        event.preventDefault();
        void save();
      }}
    >
      <CardSides question={question} answer={answer} onQuestion={setQuestion} onAnswer={setAnswer} />
      <CardPreview question={question} answer={answer} />
      {error && <Notice tone="error">{error}</Notice>}
      <div className="form__actions">
        <Button variant="secondary" small onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" small pending={update.isPending} pendingLabel="Saving...">
          Save card
        </Button>
      </div>
    </form>
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
  const deckSelectId = useId();
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
    <form
      className="form add-card"
      aria-label="Add card"
      onSubmit={(event) => {
        event.preventDefault();
        void submit(false);
      }}
      onKeyDown={(event) => {
        if (!isSaveShortcut(event)) return;
        event.preventDefault();
        void submit(true);
      }}
    >
      {!deck && (
        <div className="field">
          <label htmlFor={deckSelectId}>Deck</label>
          <select id={deckSelectId} value={chosen} onChange={(event) => setDeckId(event.target.value)}>
            {(decks.data ?? []).map((item) => (
              <option key={item._id} value={item._id}>
                {item.name}
              </option>
            ))}
          </select>
        </div>
      )}
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
      {error && <Notice tone="error">{error}</Notice>}
      <div className="form__actions">
        <Button variant="secondary" small onClick={onClose}>
          Close
        </Button>
        <Button type="submit" small pending={save.isPending} pendingLabel="Saving...">
          Add card
        </Button>
      </div>
    </form>
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
