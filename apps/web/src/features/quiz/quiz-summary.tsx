import { fillMessage } from '@flashcards/shared/messages';
import { studyMessages } from '@flashcards/shared/study-messages';
import { useEffect, useRef, useState } from 'react';
import { Notice } from '../../components/notice';
import { plainTextOf } from '../../lib/plain-text';
import { useSendQuizResults } from './quiz-api';
import type { QuizOutcome } from './quiz-modes';

/** The end of a quiz: the score, the missed cards, and a button that makes them due for review now. */
export function QuizSummary({
  deckId,
  outcomes,
  onAgain,
}: {
  deckId: string;
  outcomes: QuizOutcome[];
  onAgain: () => void;
}) {
  const send = useSendQuizResults();
  const [sent, setSent] = useState(false);
  const [failed, setFailed] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const missed = outcomes.filter((outcome) => !outcome.correct);
  const score = outcomes.length - missed.length;

  const sendMissed = async () => {
    setFailed(false);
    try {
      await send.mutateAsync({
        deckId,
        answers: outcomes.map((outcome) => ({ card_id: outcome.card_id, correct: outcome.correct })),
      });
      setSent(true);
    } catch {
      setFailed(true);
    }
  };

  return (
    <section className="quiz-summary" aria-labelledby="quiz-summary-score">
      <h2 id="quiz-summary-score" ref={heading} tabIndex={-1}>
        {fillMessage(studyMessages.quizScore, { score, total: outcomes.length })}
      </h2>
      {missed.length === 0 ? (
        <p>{studyMessages.quizNoneMissed}</p>
      ) : (
        <>
          <h3 id="quiz-summary-missed">{studyMessages.quizMissedHeading}</h3>
          <ul className="quiz-summary__missed" aria-labelledby="quiz-summary-missed">
            {missed.map((outcome, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed once the quiz ends.
              <li key={index}>
                <span className="quiz-summary__question">{plainTextOf(outcome.question)}</span>
                {' — '}
                <span className="quiz-summary__answer">{plainTextOf(outcome.answer)}</span>
              </li>
            ))}
          </ul>
          {sent ? (
            <Notice tone="success">{studyMessages.quizMissedSent}</Notice>
          ) : (
            <button type="button" className="button" onClick={sendMissed} disabled={send.isPending}>
              {send.isPending ? studyMessages.quizSendingMissed : studyMessages.quizSendMissed}
            </button>
          )}
          {failed && <Notice tone="error">{studyMessages.quizMissedSendFailed}</Notice>}
        </>
      )}
      <button type="button" className="button button--secondary" onClick={onAgain}>
        {studyMessages.quizAgain}
      </button>
    </section>
  );
}
