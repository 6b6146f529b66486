import { messages } from '@flashcards/shared/messages';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { CardMarkdown } from '../../components/card-markdown';
import { errorCode, errorDetail } from '../../lib/api-client';
import { useDecks, useSaveCards } from '../../lib/decks-api';
import { isDeckId, type QuizCard, useGenerateQuiz } from './quiz-api';
import './quiz.css';
import { DeckSelect } from '../../components/deck-select';
import { Notice } from '../../components/notice';
import { useCardShortcuts } from '../../lib/use-card-shortcuts';
import { useDeckChoice } from '../../lib/use-deck-choice';
import { useTimedNotice } from '../../lib/use-timed-notice';

/** How long 'Card added successfully!' stays. */
export const quizSavedNoticeMs = 3000;

function quizErrorText(error: unknown): string {
  switch (errorCode(error)) {
    case 'empty_deck':
    case 'no_quiz_cards':
      return messages.quizEmpty;
    case 'invalid_deck_id':
      return messages.invalidDeckId;
    case 'rate_limited':
      return errorDetail(error, messages.quizFailed);
    default:
      return messages.quizFailed;
  }
}

/**
 * The quiz: choose a deck, generate a quiz from it, flip through the quiz cards
 * (tap, space; A previous, D next) and add the current card to the chosen deck.
 */
export function QuizScreen() {
  const decks = useDecks();
  const generate = useGenerateQuiz();
  const save = useSaveCards();
  const addHintId = useId();

  const { deckId, setDeckId, error: formError, setError: setFormError, choose: chooseDeck } = useDeckChoice();
  const [cards, setCards] = useState<QuizCard[]>([]);
  const [index, setIndex] = useState(0);
  const [flipped, setFlipped] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const savedNotice = useTimedNotice<true>(quizSavedNoticeMs);
  const saved = savedNotice.value !== null;

  const deckList = decks.data ?? [];
  // Pick the first deck once the list arrives, so that one click generates a quiz.
  useEffect(() => {
    const first = decks.data?.[0];
    if (first) setDeckId((current) => current || first._id);
  }, [decks.data, setDeckId]);

  const showCard = (next: number) => {
    setIndex(next);
    setFlipped(false);
  };
  const previous = () => showCard(Math.max(0, index - 1));
  const next = () => showCard(Math.min(cards.length - 1, index + 1));
  const flip = () => setFlipped((value) => !value);

  useCardShortcuts(cards.length > 0, { a: previous, d: next, space: flip });

  const onGenerate = async () => {
    setSaveError(null);
    if (!deckId) {
      setFormError(messages.selectDeck);
      return;
    }
    if (!isDeckId(deckId)) {
      setFormError(messages.invalidDeckId);
      return;
    }
    setFormError(null);
    try {
      const result = await generate.mutateAsync(deckId);
      const quizCards = Array.isArray(result?.cards) ? result.cards : [];
      setCards(quizCards);
      showCard(0);
      if (quizCards.length === 0) setFormError(messages.quizEmpty);
    } catch (error) {
      setCards([]);
      setFormError(quizErrorText(error));
    }
  };

  const onAdd = async () => {
    setSaveError(null);
    const card = cards[index];
    if (!deckId || !isDeckId(deckId) || !card) {
      setSaveError(messages.quizSaveNoDeck);
      return;
    }
    if (
      typeof card.question !== 'string' ||
      typeof card.answer !== 'string' ||
      !card.question.trim() ||
      !card.answer.trim()
    ) {
      setSaveError(messages.quizSaveInvalidCard);
      return;
    }
    try {
      await save.mutateAsync({ deckId, cards: [{ question: card.question, answer: card.answer }] });
      savedNotice.show(true);
    } catch {
      setSaveError(messages.quizSaveFailed);
    }
  };

  if (decks.isPending) return <p>{messages.loading}</p>;
  if (decks.isError) {
    return <Notice tone="error">{messages.decksLoadFailed}</Notice>;
  }
  if (deckList.length === 0) {
    return (
      <div className="quiz__empty">
        <Notice tone="info">{messages.noDecksFound}</Notice>
        <Link className="button" to="/create">
          Create cards and a deck
        </Link>
      </div>
    );
  }

  const card = cards[index];
  const targetDeck = deckList.find((deck) => deck._id === deckId);
  return (
    <div className="quiz">
      <div className="quiz__controls">
        <DeckSelect
          fieldClassName="quiz__deck"
          decks={deckList}
          value={deckId}
          onValue={chooseDeck}
          emptyOption="Choose a deck"
          optionLabel={(deck) => `${deck.name} (${deck.card_count} ${deck.card_count === 1 ? 'card' : 'cards'})`}
        />
        <button type="button" className="button" onClick={onGenerate} disabled={generate.isPending}>
          {generate.isPending ? 'Generating Quiz...' : 'Generate Quiz'}
        </button>
      </div>
      {formError && <Notice tone="error">{formError}</Notice>}

      {card && (
        <section className="quiz__session" aria-label="Quiz cards">
          <p className="quiz__progress" aria-live="polite">
            Card {index + 1} of {cards.length}
          </p>
          {/* A tap on the card flips it; keyboard users have Space and the Show Answer button. The card is no
              button itself because its markdown may hold links. */}
          {/* biome-ignore lint/a11y/useKeyWithClickEvents: Space and the Show Answer button are the keyboard way. */}
          {/* biome-ignore lint/a11y/noStaticElementInteractions: see above. */}
          <div className={flipped ? 'quiz-card quiz-card--flipped' : 'quiz-card'} onClick={flip}>
            <span className="quiz-card__side">{flipped ? 'Answer' : 'Question'}</span>
            <CardMarkdown text={flipped ? card.answer : card.question} className="quiz-card__text" />
          </div>
          <div className="quiz__nav">
            <button type="button" className="button button--secondary" onClick={previous} disabled={index === 0}>
              Previous
            </button>
            <button type="button" className="button button--secondary" onClick={flip}>
              {flipped ? 'Show Question' : 'Show Answer'}
            </button>
            <button
              type="button"
              className="button button--secondary"
              onClick={next}
              disabled={index === cards.length - 1}
            >
              Next
            </button>
          </div>
          <div className="quiz__add">
            <button
              type="button"
              className="button"
              onClick={onAdd}
              disabled={save.isPending}
              aria-describedby={targetDeck ? addHintId : undefined}
            >
              {save.isPending ? 'Adding...' : 'Add to Deck'}
            </button>
            {targetDeck && (
              <p id={addHintId} className="muted quiz__add-hint">
                Adds this card to {targetDeck.name}.
              </p>
            )}
          </div>
          {saved && <Notice tone="success">{messages.quizCardAdded}</Notice>}
          {saveError && <Notice tone="error">{saveError}</Notice>}
          <p className="muted quiz__keys">Keyboard: Space flips, A previous card, D next card.</p>
        </section>
      )}
    </div>
  );
}
