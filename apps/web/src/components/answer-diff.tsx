import type { AnswerCheck, AnswerVerdict } from '@flashcards/shared/api-types';
import { fillMessage } from '@flashcards/shared/messages';
import { studyMessages } from '@flashcards/shared/study-messages';
import './answer-diff.css';

const verdictText: Record<AnswerVerdict, string> = {
  correct: studyMessages.verdictCorrect,
  close: studyMessages.verdictClose,
  wrong: studyMessages.verdictWrong,
};

export function verdictLabel(verdict: AnswerVerdict): string {
  return verdictText[verdict];
}

/**
 * The checker's verdict and what differed: parts of the expected answer missing from the typed one are struck
 * through (`del`), typed parts not expected are underlined (`ins`), each with a hidden word for screen readers, so
 * that neither colour nor sight alone carries the difference.
 */
export function AnswerDiff({ check }: { check: AnswerCheck }) {
  const same = check.diff.every((part) => part.op === 'equal');
  return (
    <div className={`answer-diff answer-diff--${check.verdict}`}>
      <p className="answer-diff__verdict">
        <span className="answer-diff__mark" aria-hidden="true">
          {check.verdict === 'correct' ? '✓' : check.verdict === 'close' ? '≈' : '✗'}
        </span>{' '}
        {fillMessage(studyMessages.verdictHeading, { verdict: verdictText[check.verdict] })}
      </p>
      {check.explanation && <p className="answer-diff__explanation">{check.explanation}</p>}
      {!same && (
        <>
          <p className="answer-diff__text">
            <span className="visually-hidden">{studyMessages.diffLabel}: </span>
            {check.diff.map((part, index) => {
              const key = `${index}-${part.op}`;
              if (part.op === 'delete') {
                return (
                  <del key={key}>
                    <span className="visually-hidden">{studyMessages.diffMissing} </span>
                    {part.text}
                  </del>
                );
              }
              if (part.op === 'insert') {
                return (
                  <ins key={key}>
                    <span className="visually-hidden">{studyMessages.diffExtra} </span>
                    {part.text}
                  </ins>
                );
              }
              return <span key={key}>{part.text}</span>;
            })}
          </p>
          <p className="answer-diff__legend muted">{studyMessages.diffLegend}</p>
        </>
      )}
    </div>
  );
}
