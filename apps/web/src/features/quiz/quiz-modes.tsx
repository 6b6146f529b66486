import type {
  AnswerCheck,
  MatchingQuestion,
  MultipleChoiceQuestion,
  TrueFalseQuestion,
  WrittenQuestion,
} from '@flashcards/shared/api-types';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { studyMessages } from '@flashcards/shared/study-messages';
import { type FormEvent, type PointerEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { AnswerDiff } from '../../components/answer-diff';
import { CardMarkdown } from '../../components/card-markdown';
import { Notice } from '../../components/notice';
import { SpeakButton } from '../../components/speak-button';
import { useCheckAnswer } from '../../lib/answer-check';
import { plainTextOf } from '../../lib/plain-text';
import { useQuizKeys } from './quiz-keys';

/** One answered question: the card, whether it was right, and what to list if it was missed. */
export interface QuizOutcome {
  card_id: string;
  correct: boolean;
  question: string;
  answer: string;
}

interface RunProps<Q> {
  questions: Q[];
  onDone: (outcomes: QuizOutcome[]) => void;
  /** Reads a question aloud (its speaker button). */
  onSpeak?: (text: string) => void;
}

/** The question on its card, with its speaker button. */
function QuestionCard({ text, onSpeak }: { text: string; onSpeak?: ((text: string) => void) | undefined }) {
  return (
    <div className="quiz-card quiz-card--static">
      {onSpeak && (
        <span className="quiz-card__head">
          <span className="quiz-card__side">{messages.reviewQuestionLabel}</span>
          <SpeakButton label={studyMessages.speakQuestion} onSpeak={() => onSpeak(text)} />
        </span>
      )}
      <CardMarkdown text={text} className="quiz-card__text" />
    </div>
  );
}

/** Steps through questions one at a time; each answers once, then Next (Enter) goes on, and the last one ends the quiz. */
function useSteps(count: number, onDone: (outcomes: QuizOutcome[]) => void) {
  const [index, setIndex] = useState(0);
  const [outcomes, setOutcomes] = useState<QuizOutcome[]>([]);
  const answered = outcomes.length > index;
  const record = (outcome: QuizOutcome) => {
    if (!answered) setOutcomes((before) => [...before, outcome]);
  };
  const next = () => {
    if (!answered) return;
    if (index + 1 >= count) onDone(outcomes);
    else setIndex(index + 1);
  };
  return { index, answered, outcome: answered ? outcomes[index] : undefined, record, next };
}

function Progress({
  n,
  total,
  template = studyMessages.quizQuestionProgress,
}: {
  n: number;
  total: number;
  template?: string;
}) {
  return (
    <p className="quiz__progress" aria-live="polite">
      {fillMessage(template, { n, total })}
    </p>
  );
}

/** Right, or the right answer; the Next button takes focus so that Enter goes on. */
function Feedback({ outcome, onNext }: { outcome: QuizOutcome; onNext: () => void }) {
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => button.current?.focus(), []);
  return (
    <div className="quiz-feedback">
      <Notice tone={outcome.correct ? 'success' : 'info'}>
        {outcome.correct
          ? studyMessages.quizRight
          : fillMessage(studyMessages.quizWrongAnswer, { answer: plainTextOf(outcome.answer) })}
      </Notice>
      <button type="button" className="button" ref={button} onClick={onNext}>
        {studyMessages.quizNext}
      </button>
    </div>
  );
}

/** Multiple choice: four options, keys 1–4 pick one, Enter goes on. */
export function MultipleChoiceRun({ questions, onDone, onSpeak }: RunProps<MultipleChoiceQuestion>) {
  const steps = useSteps(questions.length, onDone);
  const [picked, setPicked] = useState<number | null>(null);
  const question = questions[steps.index];
  const pick = (option: number) => {
    if (!question || steps.answered || option >= question.options.length) return;
    setPicked(option);
    steps.record({
      card_id: question.card_id,
      correct: option === question.answer_index,
      question: question.question,
      answer: question.options[question.answer_index] ?? '',
    });
  };
  const next = () => {
    if (!steps.answered) return;
    setPicked(null);
    steps.next();
  };
  useQuizKeys(true, (key) => {
    if (/^[1-4]$/.test(key)) {
      pick(Number(key) - 1);
      return true;
    }
    if (key === 'enter') {
      next();
      return true;
    }
    return false;
  });
  if (!question) return null;
  return (
    <section className="quiz__session" aria-label={studyMessages.quizModeMultipleChoice}>
      <Progress n={steps.index + 1} total={questions.length} />
      <QuestionCard text={question.question} onSpeak={onSpeak} />
      <ol className="quiz-options" aria-label={studyMessages.quizOptionsLabel}>
        {question.options.map((option, index) => {
          const state = !steps.answered
            ? ''
            : index === question.answer_index
              ? 'quiz-option--right'
              : index === picked
                ? 'quiz-option--wrong'
                : '';
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: the options are distinct and their order is the question's.
            <li key={index}>
              <button
                type="button"
                className={`quiz-option ${state}`}
                aria-keyshortcuts={String(index + 1)}
                aria-pressed={picked === index}
                disabled={steps.answered}
                onClick={() => pick(index)}
              >
                <span className="kbd" aria-hidden="true">
                  {index + 1}
                </span>{' '}
                {plainTextOf(option)}
                {state === 'quiz-option--right' && (
                  <span className="quiz-option__mark">
                    {' ✓ '}
                    {studyMessages.quizOptionRight}
                  </span>
                )}
                {state === 'quiz-option--wrong' && (
                  <span className="quiz-option__mark">
                    {' ✗ '}
                    {studyMessages.quizOptionPicked}
                  </span>
                )}
              </button>
            </li>
          );
        })}
      </ol>
      {steps.outcome && <Feedback outcome={steps.outcome} onNext={next} />}
      <p className="muted quiz__keys">{studyMessages.quizChoiceKeys}</p>
    </section>
  );
}

/** True or false: 1 (or T) true, 2 (or F) false, Enter goes on. */
export function TrueFalseRun({ questions, onDone, onSpeak }: RunProps<TrueFalseQuestion>) {
  const steps = useSteps(questions.length, onDone);
  const question = questions[steps.index];
  const choose = (value: boolean) => {
    if (!question || steps.answered) return;
    steps.record({
      card_id: question.card_id,
      correct: value === question.is_true,
      question: question.statement,
      answer: question.is_true ? studyMessages.quizTrue : studyMessages.quizFalse,
    });
  };
  useQuizKeys(true, (key) => {
    if (key === '1' || key === 't') choose(true);
    else if (key === '2' || key === 'f') choose(false);
    else if (key === 'enter') steps.next();
    else return false;
    return true;
  });
  if (!question) return null;
  return (
    <section className="quiz__session" aria-label={studyMessages.quizModeTrueFalse}>
      <Progress n={steps.index + 1} total={questions.length} />
      <QuestionCard text={question.statement} onSpeak={onSpeak} />
      <div className="quiz__nav">
        <button
          type="button"
          className="button"
          aria-keyshortcuts="1 T"
          disabled={steps.answered}
          onClick={() => choose(true)}
        >
          <span className="kbd" aria-hidden="true">
            1
          </span>{' '}
          {studyMessages.quizTrue}
        </button>
        <button
          type="button"
          className="button"
          aria-keyshortcuts="2 F"
          disabled={steps.answered}
          onClick={() => choose(false)}
        >
          <span className="kbd" aria-hidden="true">
            2
          </span>{' '}
          {studyMessages.quizFalse}
        </button>
      </div>
      {steps.outcome && <Feedback outcome={steps.outcome} onNext={steps.next} />}
      <p className="muted quiz__keys">{studyMessages.quizTrueFalseKeys}</p>
    </section>
  );
}

/** Written: the answer is typed and checked by the server's checker (POST /cards/{id}/check); Enter goes on. */
export function WrittenRun({ questions, onDone, onSpeak }: RunProps<WrittenQuestion>) {
  const steps = useSteps(questions.length, onDone);
  const checker = useCheckAnswer();
  const [typed, setTyped] = useState('');
  const [check, setCheck] = useState<AnswerCheck | null>(null);
  const [failed, setFailed] = useState(false);
  const fieldId = useId();
  const field = useRef<HTMLInputElement>(null);
  const question = questions[steps.index];
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new question focuses the field.
  useEffect(() => field.current?.focus(), [steps.index]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!question || steps.answered || checker.isPending || !typed.trim()) return;
    setFailed(false);
    try {
      const result = await checker.mutateAsync({ cardId: question.card_id, typed });
      setCheck(result);
      steps.record({
        card_id: question.card_id,
        correct: result.suggested_result === 'pass',
        question: question.question,
        answer: result.expected,
      });
    } catch {
      setFailed(true);
    }
  };
  const next = () => {
    if (!steps.answered) return;
    setTyped('');
    setCheck(null);
    steps.next();
  };
  useQuizKeys(true, (key) => {
    if (key !== 'enter' || !steps.answered) return false;
    next();
    return true;
  });
  if (!question) return null;
  return (
    <section className="quiz__session" aria-label={studyMessages.quizModeWritten}>
      <Progress n={steps.index + 1} total={questions.length} />
      <QuestionCard text={question.question} onSpeak={onSpeak} />
      <form className="quiz-written" onSubmit={submit}>
        <label htmlFor={fieldId}>{studyMessages.typedAnswerLabel}</label>
        <div className="quiz-written__row">
          <input
            id={fieldId}
            ref={field}
            value={typed}
            maxLength={1000}
            autoComplete="off"
            spellCheck={false}
            readOnly={steps.answered}
            onChange={(event) => setTyped(event.target.value)}
          />
          <button type="submit" className="button" disabled={steps.answered || checker.isPending || !typed.trim()}>
            {checker.isPending ? studyMessages.typedAnswerChecking : studyMessages.typedAnswerCheck}
          </button>
        </div>
      </form>
      {failed && <Notice tone="error">{studyMessages.typedAnswerCheckFailed}</Notice>}
      {check && <AnswerDiff check={check} />}
      {steps.outcome && <Feedback outcome={steps.outcome} onNext={next} />}
      <p className="muted quiz__keys">{studyMessages.quizWrittenKeys}</p>
    </section>
  );
}

/** A stable shuffle of a round's answers, so that each question's answer is not beside it. */
function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

/**
 * Matching: rounds of up to six pairs. A question and then its answer (or the other way round) are chosen by click,
 * tap or Enter, or an answer is dragged onto its question (pointer events, so touch works). A card is right when it
 * was matched without a wrong try.
 */
export function MatchingRun({ questions, onDone }: RunProps<MatchingQuestion>) {
  const [round, setRound] = useState(0);
  const [outcomes, setOutcomes] = useState<QuizOutcome[]>([]);
  const pairs = questions[round]?.pairs ?? [];
  const rights = useMemo(() => shuffled(pairs), [pairs]);
  const [matched, setMatched] = useState<Set<string>>(new Set());
  const [missed, setMissed] = useState<Set<string>>(new Set());
  const [left, setLeft] = useState<string | null>(null);
  const [right, setRight] = useState<string | null>(null);
  const [miss, setMiss] = useState(false);
  const dragRef = useRef<{ id: string; x: number; y: number; moved: boolean } | null>(null);
  const [dragging, setDragging] = useState<string | null>(null);
  const roundDone = pairs.length > 0 && matched.size === pairs.length;
  const nextButton = useRef<HTMLButtonElement>(null);
  // The click that ends a drag is not a tap on the dragged answer.
  const dragEnded = useRef<string | null>(null);

  useEffect(() => {
    if (roundDone) nextButton.current?.focus();
  }, [roundDone]);

  function tryPair(leftId: string, rightId: string) {
    setLeft(null);
    setRight(null);
    if (leftId === rightId) {
      setMiss(false);
      setMatched((before) => new Set(before).add(leftId));
    } else {
      setMiss(true);
      setMissed((before) => new Set(before).add(leftId));
    }
  }

  const chooseLeft = (id: string) => {
    if (matched.has(id)) return;
    if (right) tryPair(id, right);
    else setLeft(left === id ? null : id);
  };
  const chooseRight = (id: string) => {
    if (matched.has(id)) return;
    if (left) tryPair(left, id);
    else setRight(right === id ? null : id);
  };

  function nextRound() {
    const all = [
      ...outcomes,
      ...pairs.map((pair) => ({
        card_id: pair.card_id,
        correct: !missed.has(pair.card_id),
        question: pair.left,
        answer: pair.right,
      })),
    ];
    if (round + 1 >= questions.length) {
      onDone(all);
      return;
    }
    setOutcomes(all);
    setRound(round + 1);
    setMatched(new Set());
    setMissed(new Set());
    setMiss(false);
  }

  useQuizKeys(roundDone, (key) => {
    if (key !== 'enter') return false;
    nextRound();
    return true;
  });

  function onPointerDown(event: PointerEvent<HTMLButtonElement>, id: string) {
    dragEnded.current = null;
    if (event.pointerType === 'mouse' || matched.has(id)) return;
    // A ref, not state: the pointer's events come faster than renders, and each must see the latest.
    dragRef.current = { id, x: event.clientX, y: event.clientY, moved: false };
    event.currentTarget.setPointerCapture?.(event.pointerId);
  }
  function onPointerMove(event: PointerEvent<HTMLButtonElement>) {
    const current = dragRef.current;
    if (!current || current.moved) return;
    if (Math.hypot(event.clientX - current.x, event.clientY - current.y) > 8) {
      current.moved = true;
      setDragging(current.id);
    }
  }
  function onPointerUp(event: PointerEvent<HTMLButtonElement>) {
    const current = dragRef.current;
    dragRef.current = null;
    setDragging(null);
    // A tap is a click (handled by onClick); only a drag is matched here, by what it was let go over.
    if (!current?.moved) return;
    dragEnded.current = current.id;
    const target = document.elementFromPoint(event.clientX, event.clientY)?.closest<HTMLElement>('[data-match-left]');
    const leftId = target?.dataset.matchLeft;
    if (leftId && !matched.has(leftId)) tryPair(leftId, current.id);
  }

  return (
    <section className="quiz__session" aria-label={studyMessages.quizModeMatching}>
      <Progress n={round + 1} total={questions.length} template={studyMessages.quizMatchingProgress} />
      <p className="muted">{studyMessages.quizMatchingHint}</p>
      <div className="quiz-matching">
        <ul className="quiz-matching__column" aria-label={studyMessages.quizMatchingQuestions}>
          {pairs.map((pair) => {
            const done = matched.has(pair.card_id);
            return (
              <li key={pair.card_id}>
                <button
                  type="button"
                  data-match-left={pair.card_id}
                  className={`quiz-match${done ? ' quiz-match--done' : ''}`}
                  aria-pressed={left === pair.card_id}
                  disabled={done}
                  onClick={() => chooseLeft(pair.card_id)}
                >
                  {done
                    ? fillMessage(studyMessages.quizMatchedWith, {
                        left: plainTextOf(pair.left),
                        right: plainTextOf(pair.right),
                      })
                    : plainTextOf(pair.left)}
                </button>
              </li>
            );
          })}
        </ul>
        <ul className="quiz-matching__column" aria-label={studyMessages.quizMatchingAnswers}>
          {rights
            .filter((pair) => !matched.has(pair.card_id))
            .map((pair) => (
              <li key={pair.card_id}>
                <button
                  type="button"
                  className={`quiz-match quiz-match--answer${dragging === pair.card_id ? ' quiz-match--dragging' : ''}`}
                  aria-pressed={right === pair.card_id}
                  onClick={() => {
                    if (dragEnded.current === pair.card_id) dragEnded.current = null;
                    else chooseRight(pair.card_id);
                  }}
                  onPointerDown={(event) => onPointerDown(event, pair.card_id)}
                  onPointerMove={onPointerMove}
                  onPointerUp={onPointerUp}
                  onPointerCancel={() => {
                    dragRef.current = null;
                    setDragging(null);
                  }}
                >
                  {plainTextOf(pair.right)}
                </button>
              </li>
            ))}
        </ul>
      </div>
      {miss && <Notice tone="info">{studyMessages.quizMatchingMiss}</Notice>}
      {roundDone && (
        <button type="button" className="button" ref={nextButton} onClick={nextRound}>
          {studyMessages.quizNext}
        </button>
      )}
    </section>
  );
}
