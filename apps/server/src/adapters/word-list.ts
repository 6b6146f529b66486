import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

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

function contains({ text, starts }: PackedWords, word: string): boolean {
  let low = 0;
  let high = starts.length - 2;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = text.slice(starts[middle], (starts[middle + 1] ?? 1) - 1);
    if (found === word) return true;
    if (found < word) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

let english: PackedWords | null = null;

/**
 * Whether `word` (lower case) is an English word: the grader's test for a typo that makes another word ("effect"
 * for "affect", "exothermic" for "endothermic" are wrong, not close). The list (an-array-of-english-words, ~275,000
 * words from the Letterpress word list) holds rare and technical words but not common misspellings. It is read at
 * the first question, not at start-up, and not through require's cache (which would keep the parsed array too).
 */
export function isEnglishWord(word: string): boolean {
  english ??= pack(
    JSON.parse(readFileSync(createRequire(import.meta.url).resolve('an-array-of-english-words'), 'utf8')) as string[],
  );
  return contains(english, word);
}
