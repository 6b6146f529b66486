import { diffArrays } from 'diff';
import type { AnswerCheck } from '../api-types';

/** One run of a diff from the expected answer to the typed one: kept, typed in addition, or missing. */
export type DiffPart = AnswerCheck['diff'][number];

/** Answers this short are compared letter by letter, so a typo shows as the letters it changed. */
const maxCharDiffLength = 60;
/** Beyond this many edits (letters, or words) the diff is the expected answer deleted and the typed one inserted. */
const maxCharEdits = 120;
const maxWordEdits = 200;

const wordCount = (text: string) => text.split(/\s+/).length;

/** Words and the spaces between them, as tokens of their own (so the parts put together are the texts again). */
const wordsAndSpaces = (text: string) => text.split(/(\s+)/).filter((token) => token !== '');

const whole = (expected: string, typed: string): DiffPart[] =>
  [
    { op: 'delete' as const, text: expected },
    { op: 'insert' as const, text: typed },
  ].filter((part) => part.text !== '');

function push(parts: DiffPart[], op: DiffPart['op'], tokens: string[]): void {
  if (tokens.length === 0) return;
  const text = tokens.join('');
  const last = parts[parts.length - 1];
  if (last && last.op === op) last.text += text;
  else if (text !== '') parts.push({ op, text });
}

/**
 * The tokens of `from` turned into those of `to`, case aside, equal runs as typed; undefined past `maxEditLength`.
 * The common start and end are set aside first and jsdiff (Myers) runs on lower-cased copies of the rest only: a
 * typo in a long answer then costs a few comparisons, not a comparator call per token and edit.
 */
function diffTokens(from: string[], to: string[], maxEditLength: number): DiffPart[] | undefined {
  const lowerFrom = from.map((token) => token.toLowerCase());
  const lowerTo = to.map((token) => token.toLowerCase());
  let start = 0;
  while (start < from.length && start < to.length && lowerFrom[start] === lowerTo[start]) start++;
  let fromEnd = from.length;
  let toEnd = to.length;
  while (fromEnd > start && toEnd > start && lowerFrom[fromEnd - 1] === lowerTo[toEnd - 1]) {
    fromEnd--;
    toEnd--;
  }
  const parts: DiffPart[] = [];
  push(parts, 'equal', to.slice(0, start));
  const changes = diffArrays(lowerFrom.slice(start, fromEnd), lowerTo.slice(start, toEnd), { maxEditLength });
  if (!changes) return undefined;
  let i = start;
  let j = start;
  for (const change of changes) {
    const count = change.value.length;
    if (change.added) {
      push(parts, 'insert', to.slice(j, j + count));
      j += count;
    } else if (change.removed) {
      push(parts, 'delete', from.slice(i, i + count));
      i += count;
    } else {
      push(parts, 'equal', to.slice(j, j + count));
      i += count;
      j += count;
    }
  }
  push(parts, 'equal', to.slice(toEnd));
  return parts;
}

/**
 * What differs between the expected answer and the typed one, for the eye (case aside): `delete` is expected and not
 * typed, `insert` typed and not expected. Letter by letter for short answers that share most letters, word by word
 * otherwise; the number of edits is bounded (jsdiff's maxEditLength), so a long answer never costs quadratic time.
 */
export function answerDiff(expected: string, typed: string): DiffPart[] {
  const from = expected.trim();
  const to = typed.trim();
  const fromWords = wordCount(from);
  const toWords = wordCount(to);
  if (
    from.length <= maxCharDiffLength &&
    to.length <= maxCharDiffLength &&
    // Letter by letter only where a typo is likely: as many words on both sides.
    fromWords === toWords
  ) {
    const parts = diffTokens(Array.from(from), Array.from(to), maxCharEdits);
    if (parts) {
      const kept = parts.reduce((n, part) => (part.op === 'equal' ? n + part.text.length : n), 0);
      if (kept * 2 >= Math.max(from.length, to.length)) return parts;
    }
  }
  // Each word more on one side is at least one edit: past the bound, jsdiff would search in vain.
  if (Math.abs(fromWords - toWords) > maxWordEdits) return whole(from, to);
  return diffTokens(wordsAndSpaces(from), wordsAndSpaces(to), 2 * maxWordEdits) ?? whole(from, to);
}
