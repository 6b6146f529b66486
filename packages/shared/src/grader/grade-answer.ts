import type { AnswerVerdict as Verdict } from '../api-types';
import {
  articles,
  type ContentToken,
  type NumberToken,
  negations,
  type Separator,
  type Token,
  tokenize,
  type WordToken,
} from './answer-tokens';
import { boundedEditDistance } from './edit-distance';

export interface GradeOptions {
  /**
   * Whether the typed word (lower case) is another word of the expected word's language: a typo that makes another
   * word is `wrong`, not `close` ("effect" for "affect"). Without it every typo within the distance is `close`.
   */
  isOtherWord?: (typed: string, expected: string) => boolean;
}

/** The longest text either side is read to: typed answers are at most 1,000 characters, card sides 20,000. */
const maxGradedLength = 20_000;
/** A list's items that do not match exactly are paired by trying each with each, up to this many. */
const maxUnmatchedItems = 32;
/** Alternatives of an expected answer tried at most. */
const maxAlternatives = 200;

const rank: Record<Verdict, number> = { wrong: 0, close: 1, correct: 2 };
const worse = (a: Verdict, b: Verdict): Verdict => (rank[a] <= rank[b] ? a : b);
const better = (a: Verdict, b: Verdict): Verdict => (rank[a] >= rank[b] ? a : b);

/**
 * Words that differ from another word only by an accent, both in use (French, Spanish, German): typing one for
 * the other is a different word, not a missing accent.
 */
const accentPairs: ReadonlySet<string> = new Set(
  [
    ['ou', 'où'],
    ['a', 'à'],
    ['la', 'là'],
    ['du', 'dû'],
    ['sur', 'sûr'],
    ['mur', 'mûr'],
    ['des', 'dès'],
    ['pêche', 'péché'],
    ['si', 'sí'],
    ['el', 'él'],
    ['tu', 'tú'],
    ['mi', 'mí'],
    ['te', 'té'],
    ['se', 'sé'],
    ['de', 'dé'],
    ['mas', 'más'],
    ['esta', 'está'],
    ['este', 'esté'],
    ['hacia', 'hacía'],
    ['papa', 'papá'],
    ['ano', 'año'],
    ['cana', 'caña'],
    ['pena', 'peña'],
    ['schon', 'schön'],
    ['zahlen', 'zählen'],
    ['drucken', 'drücken'],
    ['mutter', 'mütter'],
    ['bruder', 'brüder'],
    ['bar', 'bär'],
    ['schwul', 'schwül'],
  ].flatMap(([x, y]) => [`${x}|${y}`, `${y}|${x}`]),
);

/** The endings (and the start) `americanSpelling` rewrites: most words have none, and then one test is enough. */
const britishSpelling = /(?:ours?|tres?|is(?:e|es|ed|ing|ations?)|ys(?:e|es|ed|ing)|ence)$|^grey/u;

/** British and American spellings of one word read alike (colour, color; centre, center; analyse, analyze). */
function americanSpelling(word: string): string {
  if (!britishSpelling.test(word)) return word;
  return word
    .replace(/(?<=\p{L}{3})our(s?)$/u, 'or$1')
    .replace(/(?<=\p{L}{3})tre(s?)$/u, 'ter$1')
    .replace(/(?<=\p{L}{3})is(e|es|ed|ing|ation|ations)$/u, 'iz$1')
    .replace(/(?<=\p{L}{2})ys(e|es|ed|ing)$/u, 'yz$1')
    .replace(/(?<=\p{L}{3})ence$/u, 'ense')
    .replace(/^grey/u, 'gray');
}

function compareWord(
  typed: WordToken,
  expected: WordToken,
  isOtherWord: (typed: string, expected: string) => boolean,
): Verdict {
  if (typed.text === expected.text) return 'correct';
  if (typed.cjk || expected.cjk) return 'wrong';
  if (typed.folded === expected.folded) return accentPairs.has(`${typed.text}|${expected.text}`) ? 'wrong' : 'close';
  if (americanSpelling(typed.text) === americanSpelling(expected.text)) return 'correct';
  const length = Array.from(expected.folded).length;
  const limit = length >= 8 ? 2 : length >= 4 ? 1 : 0;
  if (limit === 0 || boundedEditDistance(typed.folded, expected.folded, limit) > limit) return 'wrong';
  return isOtherWord(typed.text, expected.text) ? 'wrong' : 'close';
}

function sameNumber(a: NumberToken, b: NumberToken): boolean {
  if (a.date !== undefined || b.date !== undefined) return a.date === b.date;
  if (a.value === b.value) return true;
  return Math.abs(a.value - b.value) <= 1e-9 * Math.max(Math.abs(a.value), Math.abs(b.value));
}

const isNegation = (word: WordToken) => negations.has(word.text) || negations.has(word.folded);

/** One item (or a whole answer) against one expected item: numbers by value, words in order. */
function compareItem(
  typed: ContentToken[],
  expected: ContentToken[],
  isOtherWord: (typed: string, expected: string) => boolean,
): Verdict {
  const typedNumbers = typed.filter((token): token is NumberToken => token.kind === 'number');
  const expectedNumbers = expected.filter((token): token is NumberToken => token.kind === 'number');
  if (typedNumbers.length !== expectedNumbers.length) return 'wrong';
  for (let i = 0; i < typedNumbers.length; i++) {
    if (!sameNumber(typedNumbers[i] as NumberToken, expectedNumbers[i] as NumberToken)) return 'wrong';
  }
  const typedWords = typed.filter((token): token is WordToken => token.kind === 'word');
  const expectedWords = expected.filter((token): token is WordToken => token.kind === 'word');
  if (typedWords.filter(isNegation).length !== expectedWords.filter(isNegation).length) return 'wrong';
  if (typedWords.length === expectedWords.length) {
    let verdict: Verdict = 'correct';
    for (let i = 0; i < typedWords.length && verdict !== 'wrong'; i++) {
      verdict = worse(verdict, compareWord(typedWords[i] as WordToken, expectedWords[i] as WordToken, isOtherWord));
    }
    if (verdict !== 'wrong') return verdict;
  }
  // The same letters cut into words differently: "ice cream" and "icecream"; Japanese with or without spaces.
  const joinedTyped = typedWords.map((word) => word.text).join('');
  if (joinedTyped !== '' && joinedTyped === expectedWords.map((word) => word.text).join('')) {
    // Japanese needs no spaces, and neither do a formula's one-letter symbols ("πr²", "π r^2").
    const unspaced = expectedWords.every((word) => word.cjk || Array.from(word.text).length <= 2);
    return unspaced ? 'correct' : 'close';
  }
  return 'wrong';
}

const contentOf = (tokens: Token[]) => tokens.filter((token): token is ContentToken => token.kind !== 'separator');

/** The tokens between separators (of the kinds `splits`), without the separators and without empty groups. */
function split(tokens: Token[], splits: (separator: Separator) => boolean): ContentToken[][] {
  const groups: ContentToken[][] = [[]];
  for (const token of tokens) {
    if (token.kind === 'separator') {
      if (splits(token.separator)) groups.push([]);
    } else groups[groups.length - 1]?.push(token);
  }
  return groups.filter((group) => group.length > 0);
}

/** Without a leading article, when something follows it. */
function withoutArticle(tokens: ContentToken[]): ContentToken[] {
  const [first] = tokens;
  return tokens.length > 1 && first?.kind === 'word' && articles.has(first.text) ? tokens.slice(1) : tokens;
}

const keyOf = (item: ContentToken[]) =>
  item.map((token) => (token.kind === 'word' ? token.text : (token.date ?? String(token.value)))).join(' ');

/** Typed items against expected items in any order: each expected item needs its own typed item. */
function compareList(
  typed: ContentToken[][],
  expected: ContentToken[][],
  isOtherWord: (typed: string, expected: string) => boolean,
): Verdict {
  if (typed.length !== expected.length) return 'wrong';
  const unmatched = new Map<string, ContentToken[][]>();
  for (const item of typed) {
    const key = keyOf(item);
    const same = unmatched.get(key);
    if (same) same.push(item);
    else unmatched.set(key, [item]);
  }
  const leftExpected: ContentToken[][] = [];
  for (const item of expected) {
    const same = unmatched.get(keyOf(item));
    if (same && same.length > 0) same.pop();
    else leftExpected.push(item);
  }
  if (leftExpected.length === 0) return 'correct';
  if (leftExpected.length > maxUnmatchedItems) return 'wrong';
  const leftTyped = [...unmatched.values()].flat();
  let verdict: Verdict = 'correct';
  for (const item of leftExpected) {
    let bestIndex = -1;
    let bestVerdict: Verdict = 'wrong';
    leftTyped.forEach((candidate, index) => {
      if (bestVerdict === 'correct') return;
      const found = compareItem(candidate, item, isOtherWord);
      if (rank[found] > rank[bestVerdict]) {
        bestVerdict = found;
        bestIndex = index;
      }
    });
    if (bestIndex < 0) return 'wrong';
    leftTyped.splice(bestIndex, 1);
    verdict = worse(verdict, bestVerdict);
  }
  return verdict;
}

/** The typed tokens against one reading of the expected answer (an alternative, or the whole). */
function compareAnswer(
  typed: Token[],
  expected: Token[],
  isOtherWord: (typed: string, expected: string) => boolean,
): Verdict {
  const whole = compareItem(withoutArticle(contentOf(typed)), withoutArticle(contentOf(expected)), isOtherWord);
  const expectedItems = split(expected, () => true).map(withoutArticle);
  if (whole === 'correct' || expectedItems.length < 2) return whole;
  let typedItems = split(typed, () => true).map(withoutArticle);
  const [only] = typedItems;
  // "Na K Li" for "Na, K and Li": one-word items typed without separators.
  if (typedItems.length === 1 && only && expectedItems.every((item) => item.length === 1)) {
    typedItems = only.map((token) => [token]);
  }
  return better(whole, compareList(typedItems, expectedItems, isOtherWord));
}

/**
 * Grades a typed answer against the expected one by the contract's rules, without a model: case, surrounding space,
 * punctuation, markup and a leading article do not count; numbers compare by value; any one of the alternatives
 * (`;`, `/`, ` or `) is enough; a list's items may come in any order; accents and small typos are `close` unless
 * the typed word is another word; a different number, a missing item or an added negation is `wrong`.
 */
export function gradeAnswer(typed: string, expected: string, options: GradeOptions = {}): Verdict {
  const lookUp = options.isOtherWord;
  // The whole answer, each alternative and each list item compare the same word pairs again: one look-up a pair.
  const looked = new Map<string, boolean>();
  const isOtherWord = lookUp
    ? (typedWord: string, expectedWord: string) => {
        const key = `${typedWord}\n${expectedWord}`;
        let other = looked.get(key);
        if (other === undefined) {
          other = lookUp(typedWord, expectedWord);
          looked.set(key, other);
        }
        return other;
      }
    : () => false;
  const typedTokens = tokenize(typed.slice(0, maxGradedLength));
  const expectedTokens = tokenize(expected.slice(0, maxGradedLength));
  if (contentOf(expectedTokens).length === 0) {
    return typed.trim() !== '' && typed.trim().toLowerCase() === expected.trim().toLowerCase() ? 'correct' : 'wrong';
  }
  if (contentOf(typedTokens).length === 0) return 'wrong';
  let verdict = compareAnswer(typedTokens, expectedTokens, isOtherWord);
  if (verdict === 'correct') return verdict;
  const alternatives = split(expectedTokens, (separator) => separator === 'alternative');
  if (alternatives.length < 2) return verdict;
  // Within one alternative, only item separators remain.
  const pieces: Token[][] = [[]];
  for (const token of expectedTokens) {
    if (token.kind === 'separator' && token.separator === 'alternative') pieces.push([]);
    else pieces[pieces.length - 1]?.push(token);
  }
  for (const piece of pieces.slice(0, maxAlternatives)) {
    if (contentOf(piece).length === 0) continue;
    verdict = better(verdict, compareAnswer(typedTokens, piece, isOtherWord));
    if (verdict === 'correct') break;
  }
  return verdict;
}
