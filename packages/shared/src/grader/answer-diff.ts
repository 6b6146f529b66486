import { diffArrays, diffChars } from 'diff';
import type { AnswerCheck } from '../api-types';

/** One run of a diff from the expected answer to the typed one: kept, typed in addition, or missing. */
export type DiffPart = AnswerCheck['diff'][number];

/** Answers this short are compared letter by letter, so a typo shows as the letters it changed. */
const maxCharDiffLength = 60;
/** Beyond this many edits (letters, or words) the diff is the expected answer deleted and the typed one inserted. */
const maxCharEdits = 120;
const maxWordEdits = 200;

const wordCount = (text: string) => text.split(/\s+/).length;

function toParts(changes: { added: boolean; removed: boolean; value: string }[]): DiffPart[] {
  const parts: DiffPart[] = [];
  for (const change of changes) {
    const op = change.added ? 'insert' : change.removed ? 'delete' : 'equal';
    const last = parts[parts.length - 1];
    if (last && last.op === op) last.text += change.value;
    else if (change.value !== '') parts.push({ op, text: change.value });
  }
  return parts;
}

/** Words and the spaces between them, as tokens of their own (so the parts put together are the texts again). */
const wordsAndSpaces = (text: string) => text.split(/(\s+)/).filter((token) => token !== '');
const sameWord = (a: string, b: string) => a === b || a.toLowerCase() === b.toLowerCase();

const whole = (expected: string, typed: string): DiffPart[] =>
  [
    { op: 'delete' as const, text: expected },
    { op: 'insert' as const, text: typed },
  ].filter((part) => part.text !== '');

/**
 * What differs between the expected answer and the typed one, for the eye (case aside): `delete` is expected and not
 * typed, `insert` typed and not expected. Letter by letter for short answers that share most letters, word by word
 * otherwise; the number of edits is bounded (jsdiff's maxEditLength), so a long answer never costs quadratic time.
 */
export function answerDiff(expected: string, typed: string): DiffPart[] {
  const from = expected.trim();
  const to = typed.trim();
  if (
    from.length <= maxCharDiffLength &&
    to.length <= maxCharDiffLength &&
    // Letter by letter only where a typo is likely: as many words on both sides.
    wordCount(from) === wordCount(to)
  ) {
    const changes = diffChars(from, to, { ignoreCase: true, maxEditLength: maxCharEdits });
    if (changes) {
      const kept = changes.filter((change) => !change.added && !change.removed).reduce((n, c) => n + c.value.length, 0);
      if (kept * 2 >= Math.max(from.length, to.length)) return toParts(changes);
    }
  }
  // Each word more on one side is at least one edit: past the bound, jsdiff would search in vain.
  if (Math.abs(wordCount(from) - wordCount(to)) > maxWordEdits) return whole(from, to);
  // jsdiff's diffArrays over words and spaces: its diffWords, which reasons about whitespace, cost twice as much.
  const changes = diffArrays(wordsAndSpaces(from), wordsAndSpaces(to), {
    comparator: sameWord,
    maxEditLength: 2 * maxWordEdits,
  });
  return changes ? toParts(changes.map((change) => ({ ...change, value: change.value.join('') }))) : whole(from, to);
}
