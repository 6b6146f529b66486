/**
 * An answer read as the grader compares it: words (lower case, kana folded), numbers by value, and the separators
 * that split alternatives and list items. Markup, punctuation and space are gone. One pass over the text, with no
 * regular expression that can backtrack.
 */

export interface WordToken {
  kind: 'word';
  /** Lower case, NFKC, katakana as hiragana, Arabic vowel marks and tatweel removed. */
  text: string;
  /** `text` without accents (ß as ss, æ as ae…): two words equal here differ only in accents. */
  folded: string;
  /** Written in a script without typo tolerance (Han, kana, Hangul): one sign changes the word. */
  cjk: boolean;
}

export interface NumberToken {
  kind: 'number';
  value: number;
  /** A date's parts (`12/05/1990` is 12-5-1990), compared as written instead of by value. */
  date?: string;
}

export type Separator = 'alternative' | 'item';

export interface SeparatorToken {
  kind: 'separator';
  separator: Separator;
}

export type Token = WordToken | NumberToken | SeparatorToken;
export type ContentToken = WordToken | NumberToken;

/** Leading articles that do not count (the contract's list; `l'` is read as the word `l`). */
export const articles: ReadonlySet<string> = new Set([
  'a',
  'an',
  'the',
  'le',
  'la',
  'les',
  'l',
  'el',
  'los',
  'las',
  'der',
  'die',
  'das',
  'un',
  'une',
  'ein',
  'eine',
]);

/** Words that say "not" (English, French, German, Spanish, Russian, Arabic), after `n't` became `not`. */
export const negations: ReadonlySet<string> = new Set([
  'not',
  'no',
  'never',
  'none',
  'nor',
  'neither',
  'cannot',
  'nothing',
  'ne',
  'pas',
  'jamais',
  'aucun',
  'aucune',
  'nicht',
  'kein',
  'keine',
  'keinen',
  'keinem',
  'keiner',
  'nie',
  'niemals',
  'nunca',
  'jamás',
  'ningún',
  'ninguno',
  'ninguna',
  'не',
  'нет',
  'ни',
  'никогда',
  'لا',
  'ليس',
  'لم',
  'لن',
]);

const alternativeWords: ReadonlySet<string> = new Set(['or']);
const itemWords: ReadonlySet<string> = new Set(['and']);

const greekCommands: Record<string, string> = {
  alpha: 'α',
  beta: 'β',
  gamma: 'γ',
  delta: 'δ',
  epsilon: 'ε',
  theta: 'θ',
  lambda: 'λ',
  mu: 'μ',
  nu: 'ν',
  pi: 'π',
  rho: 'ρ',
  sigma: 'σ',
  tau: 'τ',
  phi: 'φ',
  chi: 'χ',
  psi: 'ψ',
  omega: 'ω',
};

/** LaTeX operators that say "times", kept so that `6.02 \times 10^{23}` reads as one number. */
const latexSymbols: Record<string, string> = { times: '×', cdot: '·' };

const superscriptRun = /[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+/g;
const superscripts: Record<string, string> = {
  '⁰': '0',
  '¹': '1',
  '²': '2',
  '³': '3',
  '⁴': '4',
  '⁵': '5',
  '⁶': '6',
  '⁷': '7',
  '⁸': '8',
  '⁹': '9',
  '⁻': '-',
};

const wordChar = /[\p{L}\p{M}]/u;
const cjkChar = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const arabicVowelMark = /[\u064B-\u065F\u0670\u0640]/gu;
const combiningMark = /\p{M}/gu;
const space = /\s/u;

/** Katakana (ァ to ヶ, ヽ ヾ) as the same hiragana: a word written in either kana is the same word. */
function hiraganaOf(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    out +=
      (code >= 0x30a1 && code <= 0x30f6) || code === 0x30fd || code === 0x30fe
        ? String.fromCodePoint(code - 0x60)
        : char;
  }
  return out;
}

/** Accents off: NFD without combining marks, and the letters NFD does not split. */
const unsplitLetters: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  أ: 'ا',
  إ: 'ا',
  آ: 'ا',
  ٱ: 'ا',
  ى: 'ي',
  ة: 'ه',
};
const unsplitLetter = /[ßæœøłđأإآٱىة]/g;

function withoutAccents(text: string): string {
  return text
    .normalize('NFD')
    .replace(combiningMark, '')
    .replace(unsplitLetter, (letter) => unsplitLetters[letter] ?? letter);
}

const plainWord = /^[a-z]+$/;
const katakana = /[\u30a1-\u30f6\u30fd\u30fe]/;

function wordToken(raw: string): WordToken {
  // Most words of most answers: nothing to fold.
  if (plainWord.test(raw)) return { kind: 'word', text: raw, folded: raw, cjk: false };
  const text = (katakana.test(raw) ? hiraganaOf(raw) : raw).replace(arabicVowelMark, '');
  const cjk = cjkChar.test(text);
  return { kind: 'word', text, folded: cjk ? text : withoutAccents(text), cjk };
}

/**
 * Markup off: LaTeX commands (fractions as a/b, Greek letters as letters, the rest dropped, their arguments kept),
 * HTML tags, and a Markdown link or image as its text. Superscript digits become `^` and digits before NFKC turns
 * `10²³` into `1023`.
 */
function withoutMarkup(text: string): string {
  let out = text
    .replace(superscriptRun, (run) => `^${Array.from(run, (char) => superscripts[char] ?? '').join('')}`)
    .normalize('NFKC');
  // Each pass only where its markup can be: most answers have none.
  if (out.includes('\\')) {
    out = out
      .replace(/\\[dt]?frac\{(\d{1,20})\}\{(\d{1,20})\}/g, '$1/$2')
      .replace(
        /\\([A-Za-z]{1,30})/g,
        (_, name: string) => ` ${latexSymbols[name] ?? greekCommands[name.toLowerCase()] ?? ''} `,
      );
  }
  if (out.includes('<')) out = out.replace(/<\/?[A-Za-z][^<>\n]{0,200}>/g, ' ');
  if (out.includes('](')) out = out.replace(/!?\[([^[\]\n]{0,500})\]\([^()\n]{0,2000}\)/g, '$1');
  out = out.toLowerCase();
  // "isn't", "don't": the negation is a word of its own.
  if (out.includes("'") || out.includes('’')) out = out.replace(/n['’]t(?![\p{L}])/gu, ' not');
  return out;
}

const digitValue = (char: string | undefined): number => {
  if (char === undefined) return -1;
  const code = char.charCodeAt(0);
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x660 && code <= 0x669) return code - 0x660;
  if (code >= 0x6f0 && code <= 0x6f9) return code - 0x6f0;
  return -1;
};
const isDigit = (char: string | undefined) => digitValue(char) >= 0;
const groupSpaces = new Set([',', ' ', '\u00a0', '\u202f', '\u2009']);

/** Reads the digits from `start`; answers them as ASCII and the index after them. */
function digitsAt(chars: string[], start: number): [string, number] {
  let end = start;
  let text = '';
  while (isDigit(chars[end])) {
    text += String(digitValue(chars[end]));
    end++;
  }
  return [text, end];
}

/**
 * A number from `start` (a digit, or the `.` before one): thousands grouped by `,` or a space (`1,000`, `1 000`),
 * a decimal point or comma (`0.5`, `.5`, `3,14`), a fraction (`1/2`), an exponent (`6.02e23`), or a date
 * (`12/05/1990`, `1990-05-12`).
 */
function numberAt(chars: string[], start: number, negative: boolean): [NumberToken, number] {
  let [whole, index] = digitsAt(chars, start);
  // A date: three groups of digits joined by the same `/`, `.` or `-`.
  const joiner = chars[index];
  if ((joiner === '/' || joiner === '.' || joiner === '-') && whole.length > 0 && whole.length <= 4) {
    const [second, afterSecond] = digitsAt(chars, index + 1);
    if (second.length > 0 && second.length <= 2 && chars[afterSecond] === joiner) {
      const [third, afterThird] = digitsAt(chars, afterSecond + 1);
      if (third.length > 0 && third.length <= 4 && !isDigit(chars[afterThird])) {
        const parts = [whole, second, third].map((part) => String(Number(part)));
        return [{ kind: 'number', value: Number.NaN, date: parts.join('-') }, afterThird];
      }
    }
  }
  if (whole.length > 0 && whole.length <= 3) {
    const grouping = chars[index];
    while (grouping !== undefined && groupSpaces.has(grouping) && chars[index] === grouping) {
      const [group, after] = digitsAt(chars, index + 1);
      if (group.length !== 3) break;
      whole += group;
      index = after;
    }
  }
  let fraction = '';
  const mark = chars[index];
  if ((mark === '.' || mark === ',') && isDigit(chars[index + 1])) {
    const [decimals, after] = digitsAt(chars, index + 1);
    // `1,2,3` is a list of numbers, not 1.2 followed by 3.
    const listed = mark === ',' && chars[after] === ',' && isDigit(chars[after + 1]);
    if (!listed) {
      fraction = decimals;
      index = after;
    }
  }
  let value = Number(`${whole || '0'}.${fraction || '0'}`);
  if (fraction === '' && chars[index] === '/' && isDigit(chars[index + 1])) {
    const [denominator, after] = digitsAt(chars, index + 1);
    if (Number(denominator) !== 0) {
      value /= Number(denominator);
      index = after;
    }
  }
  const e = chars[index];
  if (
    (e === 'e' || e === 'E') &&
    (isDigit(chars[index + 1]) || (chars[index + 1] === '-' && isDigit(chars[index + 2])))
  ) {
    const minus = chars[index + 1] === '-';
    const [exponent, after] = digitsAt(chars, index + (minus ? 2 : 1));
    if (exponent.length <= 3) {
      value *= 10 ** (minus ? -Number(exponent) : Number(exponent));
      index = after;
    }
  }
  return [{ kind: 'number', value: negative ? -value : value }, index];
}

type Operator = '*' | '^';
/** An operator between numbers; `word` when it was the letter x, which stays a word unless it joined two numbers. */
type RawToken = Token | { kind: 'operator'; operator: Operator; word?: WordToken };

const separatorOf: Record<string, Separator> = {
  ';': 'alternative',
  '/': 'alternative',
  ',': 'item',
  '、': 'item',
  '\n': 'item',
};
const operatorOf: Record<string, Operator> = { '×': '*', '·': '*', '*': '*', '^': '^' };

/** `left operator right` as one number, when `merge` makes one of the three. */
function mergeTriples(
  tokens: RawToken[],
  merge: (left: NumberToken, operator: Operator, right: NumberToken) => number | null,
) {
  const out: RawToken[] = [];
  for (const token of tokens) {
    out.push(token);
    const length = out.length;
    if (length < 3) continue;
    const [left, operator, right] = [out[length - 3], out[length - 2], out[length - 1]];
    if (left?.kind !== 'number' || operator?.kind !== 'operator' || right?.kind !== 'number') continue;
    if (left.date !== undefined || right.date !== undefined) continue;
    const value = merge(left, operator.operator, right);
    if (value !== null) out.splice(-3, 3, { kind: 'number', value });
  }
  return out;
}

/** Scientific notation read as one number: `6.02 × 10^23`, `10^-3`, `2^10` (powers first, then × 10ⁿ). */
function mergeOperators(tokens: RawToken[]): Token[] {
  if (!tokens.some((token) => token.kind === 'operator')) return tokens as Token[];
  const powers = mergeTriples(tokens, (left, operator, right) =>
    operator === '^' && Math.abs(right.value) <= 400 ? left.value ** right.value : null,
  );
  const products = mergeTriples(powers, (left, operator, right) =>
    operator === '*' && Math.abs(right.value) >= 10 && Number.isInteger(Math.log10(Math.abs(right.value)))
      ? left.value * right.value
      : null,
  );
  return products.flatMap((token) => (token.kind !== 'operator' ? [token] : token.word ? [token.word] : []));
}

/** The answer as tokens (see the file's comment). */
export function tokenize(answer: string): Token[] {
  const chars = Array.from(withoutMarkup(answer));
  const tokens: RawToken[] = [];
  let word = '';
  const endWord = () => {
    if (word === '') return;
    const token = wordToken(word);
    word = '';
    if (token.text === 'x' && tokens[tokens.length - 1]?.kind === 'number') {
      tokens.push({ kind: 'operator', operator: '*', word: token });
    } else if (alternativeWords.has(token.text)) tokens.push({ kind: 'separator', separator: 'alternative' });
    else if (itemWords.has(token.text)) tokens.push({ kind: 'separator', separator: 'item' });
    else tokens.push(token);
  };
  let index = 0;
  while (index < chars.length) {
    const char = chars[index] as string;
    const code = char.charCodeAt(0);
    // ASCII letters without the regular expression; the rest of Unicode's letters and marks with it.
    if ((code >= 0x61 && code <= 0x7a) || (code >= 0x80 && wordChar.test(char))) {
      word += char;
      index++;
      continue;
    }
    endWord();
    const previous = chars[index - 1];
    const startsNumber = isDigit(char) || (char === '.' && isDigit(chars[index + 1]) && !isDigit(previous));
    const minus = (char === '-' || char === '−') && isDigit(chars[index + 1]);
    const minusHere = minus && (previous === undefined || space.test(previous) || previous === '(' || previous === '^');
    if (startsNumber || minusHere) {
      const [token, after] = numberAt(chars, minusHere ? index + 1 : index, minusHere);
      tokens.push(token);
      index = after;
      continue;
    }
    const separator = separatorOf[char];
    if (separator) tokens.push({ kind: 'separator', separator });
    else if (char === '&') tokens.push({ kind: 'separator', separator: 'item' });
    else {
      const operator = operatorOf[char];
      if (operator) tokens.push({ kind: 'operator', operator });
    }
    index++;
  }
  endWord();
  return mergeOperators(tokens);
}
