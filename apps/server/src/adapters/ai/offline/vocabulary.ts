/** One pair of a vocabulary list: the word (or phrase) and what it means. */
export interface VocabularyPair {
  term: string;
  meaning: string;
}

// Separators a learner puts between a word and its meaning, most specific first.
const separators = ['\t', ' = ', ' – ', ' — ', ' - ', '：', ' : ', ': ', ':', '=', ' / ', '; ', ', ', ','];

const sentenceEnd = /[.!?。！？]\s|[。！？]$/u;

function isShortSide(side: string): boolean {
  const t = side.trim();
  if (!t || !/[\p{L}\p{N}]/u.test(t) || t.length > 60) return false;
  if (sentenceEnd.test(t)) return false;
  const spaced = t.split(/\s+/).length;
  return spaced <= 6;
}

/** The line split at `separator` into two short sides, or null. */
function splitAt(line: string, separator: string): VocabularyPair | null {
  const at = line.indexOf(separator);
  if (at <= 0) return null;
  const term = line.slice(0, at).trim();
  const meaning = line.slice(at + separator.length).trim();
  // A URL's or a time's colon is not a separator.
  if (separator.includes(':') && (/^\/\//.test(meaning) || /\d$/.test(term))) return null;
  if (!isShortSide(term) || !isShortSide(meaning)) return null;
  return { term: term.replace(/^([-*•]|\d+[.)])\s+/, ''), meaning: meaning.replace(/[.;,]$/, '') };
}

/**
 * A vocabulary list: at least three lines, most of them (70 %) "word SEPARATOR meaning" with the same separator
 * and short sides. Returns one pair per line that splits (lines that do not, a title say, are left out), or null
 * when the text is not such a list.
 */
export function vocabularyPairs(text: string): VocabularyPair[] | null {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.length < 3) return null;
  const enough = (found: VocabularyPair[]) => found.length >= 3 && found.length >= lines.length * 0.7;
  for (const separator of separators) {
    const found = lines.map((line) => splitAt(line, separator)).filter((pair): pair is VocabularyPair => pair !== null);
    if (enough(found)) return found;
  }
  // A tab lost in extraction leaves one space: "Montag Monday", "星期一 Monday" (two words, or two scripts).
  const bySpace = lines.map(splitAtSpace).filter((pair): pair is VocabularyPair => pair !== null);
  return enough(bySpace) ? bySpace : null;
}

const unspacedScript = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

function splitAtSpace(line: string): VocabularyPair | null {
  const parts = line.split(/\s+/);
  if (parts.length === 2) {
    const [term = '', meaning = ''] = parts;
    return isShortSide(term) && isShortSide(meaning) && /\p{L}/u.test(term) && /\p{L}/u.test(meaning)
      ? { term, meaning }
      : null;
  }
  // Words in a script without spaces, then the meaning in another script: split where the script changes.
  const m = /^(\S*[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]\S*)\s+([^\s].*)$/u.exec(line);
  if (m && !unspacedScript.test(m[2] ?? '') && isShortSide(m[1] ?? '') && isShortSide(m[2] ?? ''))
    return { term: m[1] ?? '', meaning: m[2] ?? '' };
  return null;
}
