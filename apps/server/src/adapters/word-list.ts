import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** A sorted word list kept as one string and the offsets of its words: about a fifth of a Set's memory. */
interface PackedWords {
  text: string;
  starts: Uint32Array;
}

function pack(words: string[]): PackedWords {
  const sorted = [...words].sort();
  const starts = new Uint32Array(sorted.length + 1);
  let offset = 0;
  sorted.forEach((word, index) => {
    starts[index] = offset;
    offset += word.length + 1;
  });
  starts[sorted.length] = offset;
  return { text: `${sorted.join('\n')}\n`, starts };
}

/** `word` against the list's word at [start, end): negative, zero or positive, as string comparison orders them. */
function compareAt(text: string, start: number, end: number, word: string): number {
  const length = Math.min(end - start, word.length);
  for (let i = 0; i < length; i++) {
    const difference = text.charCodeAt(start + i) - word.charCodeAt(i);
    if (difference !== 0) return difference;
  }
  return end - start - word.length;
}

// Compared in place: the checked answers' words are looked up on every request, and a slice per probe was garbage.
function contains({ text, starts }: PackedWords, word: string): boolean {
  let low = 0;
  let high = starts.length - 2;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const order = compareAt(text, starts[middle] ?? 0, (starts[middle + 1] ?? 1) - 1, word);
    if (order === 0) return true;
    if (order < 0) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

const resolvePackage = createRequire(import.meta.url).resolve;

/** The words of a Hunspell dictionary package (wooorm's dictionary-xx): its stems, lower case, affixes not applied. */
function hunspellStems(name: string): string[] {
  const dic = readFileSync(path.join(path.dirname(resolvePackage(name)), 'index.dic'), 'utf8');
  const words = new Set<string>();
  // The first line is the count; lines starting with space or tab are comments.
  for (const line of dic.split('\n').slice(1)) {
    if (line === '' || line.startsWith('\t') || line.startsWith(' ')) continue;
    const stem = (line.split('/')[0] ?? '').trim().toLowerCase();
    if (stem !== '') words.add(stem);
  }
  return [...words];
}

/** Each list read at the first question that needs it, not at start-up. */
const lists = new Map<string, PackedWords>();
function listOf(name: string, read: () => string[]): PackedWords {
  let list = lists.get(name);
  if (!list) {
    list = pack(read());
    lists.set(name, list);
  }
  return list;
}

// an-array-of-english-words is read as a file, not through require's cache (which would keep the parsed array too).
const english = () =>
  listOf('en', () => JSON.parse(readFileSync(resolvePackage('an-array-of-english-words'), 'utf8')) as string[]);
const cyrillic = /\p{Script=Cyrillic}/u;
const latin = /\p{Script=Latin}/u;

/** The lists of the languages written in `word`'s script (English first). */
function listsFor(word: string): PackedWords[] {
  if (cyrillic.test(word)) return [listOf('ru', () => hunspellStems('dictionary-ru'))];
  if (!latin.test(word)) return [];
  return [
    english(),
    listOf('fr', () => hunspellStems('dictionary-fr')),
    listOf('es', () => hunspellStems('dictionary-es')),
  ];
}

/**
 * Whether `typed` (lower case) is another word of the language of `expected`: the grader's test for a typo that makes
 * another word ("effect" for "affect", "exothermic" for "endothermic" are wrong, not close). The language is each
 * list that holds `expected` (every list of its script when none does), so that "mitocondria", Spanish, stays a typo
 * of the English "mitochondria". English: an-array-of-english-words (~275,000 words from the Letterpress word list:
 * rare and technical words, not common misspellings). French and Spanish (Latin script) and Russian (Cyrillic): the
 * stems of the Hunspell dictionaries dictionary-fr, dictionary-es and dictionary-ru (MPL, BSD), without their
 * inflected forms. German has none: its Hunspell dictionary is GPL only.
 */
export function isOtherWord(typed: string, expected: string): boolean {
  const lists = listsFor(typed);
  const ofExpected = lists.filter((list) => contains(list, expected));
  return (ofExpected.length > 0 ? ofExpected : lists).some((list) => contains(list, typed));
}
