import type { AnswerCheck, ReviewResult } from '@flashcards/shared/api-types';
import { fillMessage } from '@flashcards/shared/messages';
import { studyMessages } from '@flashcards/shared/study-messages';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { AnswerDiff } from '../../components/answer-diff';
import { gradeLabel } from './interval-label';

/**
 * The field a learner types the answer into before the card flips (review with "Type the answer" on). Enter checks;
 * the field takes focus when it appears, one per card.
 */
export function TypedAnswerForm({ busy, onCheck }: { busy: boolean; onCheck: (typed: string) => void }) {
  const [typed, setTyped] = useState('');
  const fieldId = useId();
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (typed.trim() && !busy) onCheck(typed);
  };
  return (
    <form className="typed-answer" onSubmit={submit}>
      <label htmlFor={fieldId}>{studyMessages.typedAnswerLabel}</label>
      <div className="typed-answer__row">
        <input
          id={fieldId}
          ref={field}
          className="typed-answer__field"
          value={typed}
          maxLength={1000}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          onChange={(event) => setTyped(event.target.value)}
        />
        <button type="submit" className="button" disabled={busy || !typed.trim()}>
          {busy ? studyMessages.typedAnswerChecking : studyMessages.typedAnswerCheck}
        </button>
      </div>
    </form>
  );
}

/**
 * The verdict on the typed answer, what differed, and the grade it suggests (Enter takes it; the grade buttons, A
 * and D overrule it). It takes focus when it appears so that a screen reader reads the verdict.
 */
export function TypedVerdict({ check, id }: { check: AnswerCheck; id: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.focus(), []);
  return (
    <div className="typed-verdict" ref={box} tabIndex={-1}>
      <AnswerDiff check={check} />
      <p id={id} className="typed-verdict__suggestion">
        {fillMessage(studyMessages.typedSuggestion, { grade: gradeName(check.suggested_result) })}
      </p>
    </div>
  );
}

function gradeName(result: ReviewResult): string {
  return gradeLabel(result, null);
}
