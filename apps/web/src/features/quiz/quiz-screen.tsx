import type { QuizMode, StudyQuiz } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { studyMessages } from '@flashcards/shared/study-messages';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { CardMarkdown } from '../../components/card-markdown';
import { errorCode, errorDetail } from '../../lib/api-client';
import { useDecks, useSaveCards } from '../../lib/decks-api';
import { isDeckId, type QuizCard, useGenerateQuiz } from './quiz-api';
import { MatchingRun, MultipleChoiceRun, type QuizOutcome, TrueFalseRun, WrittenRun } from './quiz-modes';
import { QuizSummary } from './quiz-summary';
import './quiz.css';
import { DeckSelect } from '../../components/deck-select';
import { Notice } from '../../components/notice';
import { SpeakButton } from '../../components/speak-button';
import { useCardShortcuts } from '../../lib/use-card-shortcuts';
import { useDeckChoice } from '../../lib/use-deck-choice';
import { speechSettingsOf, useReadAloud, useSideLanguages } from '../../lib/use-read-aloud';
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
    case 'not_enough_cards':
      return messages.notEnoughCards;
    case 'rate_limited':
      return errorDetail(error, messages.quizFailed);
    default:
      return messages.quizFailed;
  }
}

const modeNames: Record<QuizMode, string> = {
  flip: studyMessages.quizModeFlip,
  multiple_choice: studyMessages.quizModeMultipleChoice,
  true_false: studyMessages.quizModeTrueFalse,
  matching: studyMessages.quizModeMatching,
  written: studyMessages.quizModeWritten,
};

type StudyQuizOf<M> = Extract<StudyQuiz, { mode: M }>;
type AnsweredQuiz = Exclude<StudyQuiz, { mode: 'flip' }>;

/** A quiz answered question by question (every mode but flip), ending on its score. */
function StudyRun({
  quiz,
  onDone,
  onSpeak,
}: {
  quiz: AnsweredQuiz;
  onDone: (outcomes: QuizOutcome[]) => void;
  onSpeak: (text: string) => void;
}) {
  switch (quiz.mode) {
    case 'multiple_choice':
      return (
        <MultipleChoiceRun
          questions={(quiz as StudyQuizOf<'multiple_choice'>).questions}
          onDone={onDone}
          onSpeak={onSpeak}
        />
      );
    case 'true_false':
      return (
        <TrueFalseRun questions={(quiz as StudyQuizOf<'true_false'>).questions} onDone={onDone} onSpeak={onSpeak} />
      );
    case 'matching':
      return <MatchingRun questions={(quiz as StudyQuizOf<'matching'>).questions} onDone={onDone} onSpeak={onSpeak} />;
    default:
      return <WrittenRun questions={(quiz as StudyQuizOf<'written'>).questions} onDone={onDone} onSpeak={onSpeak} />;
  }
}

/** The question and answer texts of a quiz, for detecting each side's language. */
function quizSides(quiz: AnsweredQuiz | undefined): { questions: string[]; answers: string[] } {
  if (!quiz) return { questions: [], answers: [] };
  switch (quiz.mode) {
    case 'multiple_choice':
      return {
        questions: quiz.questions.map((item) => item.question),
        answers: quiz.questions.map((item) => item.options[item.answer_index] ?? ''),
      };
    case 'matching': {
      const pairs = quiz.questions.flatMap((round) => round.pairs);
      return { questions: pairs.map((pair) => pair.left), answers: pairs.map((pair) => pair.right) };
    }
    case 'true_false':
      return { questions: quiz.questions.map((item) => item.statement), answers: [] };
    default:
      return { questions: quiz.questions.map((item) => item.question), answers: [] };
  }
}

/**
 * The quiz: choose a deck and a quiz type, generate a quiz from it. Flip mode flips through reworded cards (tap,
 * space; A previous, D next) and adds the current card to the chosen deck; the other modes ask each card once and end
 * on the score, the missed cards and a way to send them to review.
 */
export function QuizScreen() {
  const decks = useDecks();
  const generate = useGenerateQuiz();
  const save = useSaveCards();
  const addHintId = useId();

  const { deckId, setDeckId, error: formError, setError: setFormError, choose: chooseDeck } = useDeckChoice();
  const [mode, setMode] = useState<QuizMode>('flip');
  const [study, setStudy] = useState<{ quiz: AnsweredQuiz; deckId: string; run: number } | null>(null);
  const [outcomes, setOutcomes] = useState<QuizOutcome[] | null>(null);
  const modeId = useId();
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

  // Read aloud in the deck's languages (or those of the quiz's cards), automatically when the deck says so.
  const speech = speechSettingsOf(decks.data?.find((deck) => deck._id === deckId));
  const sides = study
    ? quizSides(study.quiz)
    : { questions: cards.map((item) => item.question), answers: cards.map((item) => item.answer) };
  const languages = useSideLanguages(speech, sides.questions, sides.answers);
  const readAloud = useReadAloud();
  const { read } = readAloud;
  const shown = cards[index];
  const autoText = shown && speech.auto ? (flipped ? shown.answer : shown.question) : null;
  const autoLang = flipped ? languages.answer : languages.question;
  useEffect(() => {
    if (autoText !== null) void read(autoText, autoLang);
  }, [autoText, autoLang, read]);

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
      const result = await generate.mutateAsync({ deckId, mode });
      setOutcomes(null);
      if (result.mode && result.mode !== 'flip') {
        setCards([]);
        setStudy((before) => ({ quiz: result, deckId, run: (before?.run ?? 0) + 1 }));
        if (result.questions.length === 0) setFormError(messages.quizEmpty);
        return;
      }
      setStudy(null);
      const quizCards = Array.isArray(result?.cards) ? result.cards : [];
      setCards(quizCards);
      showCard(0);
      if (quizCards.length === 0) setFormError(messages.quizEmpty);
    } catch (error) {
      setCards([]);
      setStudy(null);
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
  const speakShown = () => {
    if (card)
      void readAloud.read(flipped ? card.answer : card.question, flipped ? languages.answer : languages.question);
  };
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
        <div className="field quiz__mode">
          <label htmlFor={modeId}>{studyMessages.quizModeLabel}</label>
          <select id={modeId} value={mode} onChange={(event) => setMode(event.target.value as QuizMode)}>
            {(Object.keys(modeNames) as QuizMode[]).map((value) => (
              <option key={value} value={value}>
                {modeNames[value]}
              </option>
            ))}
          </select>
        </div>
        <button type="button" className="button" onClick={onGenerate} disabled={generate.isPending}>
          {generate.isPending ? 'Generating Quiz...' : 'Generate Quiz'}
        </button>
      </div>
      {formError && <Notice tone="error">{formError}</Notice>}

      {study && readAloud.notice && <Notice tone="info">{readAloud.notice}</Notice>}
      {study && outcomes && (
        <QuizSummary
          key={study.run}
          deckId={study.deckId}
          outcomes={outcomes}
          onAgain={() => {
            setStudy(null);
            setOutcomes(null);
          }}
        />
      )}
      {study && !outcomes && study.quiz.questions.length > 0 && (
        <StudyRun
          key={study.run}
          quiz={study.quiz}
          onDone={setOutcomes}
          onSpeak={(text) => void readAloud.read(text, languages.question)}
        />
      )}

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
            <span className="quiz-card__head">
              <span className="quiz-card__side">{flipped ? 'Answer' : 'Question'}</span>
              <SpeakButton
                label={flipped ? studyMessages.speakAnswer : studyMessages.speakQuestion}
                onSpeak={speakShown}
              />
            </span>
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
          {readAloud.notice && <Notice tone="info">{readAloud.notice}</Notice>}
          {saved && <Notice tone="success">{messages.quizCardAdded}</Notice>}
          {saveError && <Notice tone="error">{saveError}</Notice>}
          <p className="muted quiz__keys">Keyboard: Space flips, A previous card, D next card.</p>
        </section>
      )}
    </div>
  );
}
