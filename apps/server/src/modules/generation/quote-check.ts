import search from 'approx-string-match';
import type { Passage } from '../../adapters/extract/extracted';

/** The longest quote checked; a longer one is a copy of the document, not a passage, and is never verified. */
export const maxQuoteChars = 2000;
/** The share of a quote's characters that may differ (edits) from the material, whitespace, case and punctuation aside. */
const allowedEditShare = 0.1;
/** A quote piece found more often than this says nothing about where the quote is: it is not used as an anchor. */
const maxAnchorHits = 24;
/** Past this many candidate characters, one pass over the whole material is cheaper than windows. */
const windowShareOfText = 0.5;
/** A quote of fewer letters and digits than this says too little to be found anywhere meaningful. */
const minQuoteChars = 8;
/** The paragraph given with a found quote is cut to this length around it. */
const maxParagraphChars = 2000;

/** A character kept by the comparison: letters, digits and combining marks (everything else is set aside). */
const kept = /[\p{L}\p{N}\p{M}]/u;

/**
 * The material of a generation, normalised once for every quote checked against it: its letters and digits in
 * lower case (NFKC), each mapped back to its passage and its place there.
 */
export interface QuoteIndex {
  text: string;
  /** For each character of `text`, its passage's index. */
  passageOf: Uint32Array;
  /** For each character of `text`, its offset in its passage's text. */
  offsetOf: Uint32Array;
  passages: readonly Passage[];
}

/** Letters and digits of `text`, lower case, NFKC: what two texts must share to be the same words. */
export function normaliseForQuote(text: string): string {
  // A quote needs no map back to its places: ASCII text in two native passes, the rest through the index's rules.
  if (!/[^\p{ASCII}]/u.test(text)) return text.toLowerCase().replace(/[^a-z0-9]/g, '');
  return quoteIndex([{ text }]).text;
}

export function quoteIndex(passages: readonly Passage[]): QuoteIndex {
  const total = passages.reduce((sum, passage) => sum + passage.text.length, 0);
  // NFKC can lengthen a character (a ligature, a fraction): room for that, the arrays are cut to size at the end.
  let passageOf: Uint32Array = new Uint32Array(total + 16);
  let offsetOf: Uint32Array = new Uint32Array(total + 16);
  const chars: string[] = [];
  let size = 0;
  const push = (char: string, passage: number, offset: number) => {
    if (size === passageOf.length) {
      passageOf = grow(passageOf);
      offsetOf = grow(offsetOf);
    }
    chars.push(char);
    passageOf[size] = passage;
    offsetOf[size] = offset;
    size++;
  };
  passages.forEach((passage, index) => {
    const text = passage.text;
    // ASCII, nearly all of most texts: the string in one native pass, then only the offsets char by char.
    if (!/[^\p{ASCII}]/u.test(text)) {
      chars.push(text.toLowerCase().replace(/[^a-z0-9]/g, ''));
      for (let offset = 0; offset < text.length; offset++) {
        const code = text.charCodeAt(offset) | 0x20;
        if ((code >= 0x61 && code <= 0x7a) || isDigit(text.charCodeAt(offset))) {
          if (size === passageOf.length) {
            passageOf = grow(passageOf);
            offsetOf = grow(offsetOf);
          }
          passageOf[size] = index;
          offsetOf[size] = offset;
          size++;
        }
      }
      return;
    }
    for (let offset = 0; offset < text.length; offset++) {
      const code = text.charCodeAt(offset);
      if (code < 0x80) {
        if ((code >= 0x61 && code <= 0x7a) || isDigit(code)) push(text[offset] as string, index, offset);
        else if (code >= 0x41 && code <= 0x5a) push(String.fromCharCode(code + 32), index, offset);
        continue;
      }
      const raw = String.fromCodePoint(text.codePointAt(offset) ?? code);
      for (const char of raw.normalize('NFKC').toLowerCase()) if (kept.test(char)) push(char, index, offset);
      offset += raw.length - 1;
    }
  });
  return { text: chars.join(''), passageOf: passageOf.slice(0, size), offsetOf: offsetOf.slice(0, size), passages };
}

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;

function grow(array: Uint32Array): Uint32Array {
  const bigger = new Uint32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

/** Where a quote was found: its passage, and the paragraph of that passage that holds it. */
export interface QuoteMatch {
  passage: Passage;
  paragraph: string;
}

/**
 * Finds a quote in the material, whitespace, case and punctuation aside, within 10 % edits; null when it is not
 * there. Bounded: the exact place first (one indexOf), else candidate windows around exact pieces of the quote (by
 * the pigeonhole rule a match with k edits holds one of k + 1 pieces unchanged), each searched with Myers'
 * bit-parallel edit distance (approx-string-match); a quote is never read as a pattern.
 */
export function findQuote(index: QuoteIndex, quote: string): QuoteMatch | null {
  if (quote.length > maxQuoteChars) return null;
  const wanted = normaliseForQuote(quote);
  if (wanted.length < minQuoteChars) return null;
  const exact = index.text.indexOf(wanted);
  if (exact >= 0) return matchAt(index, exact, exact + wanted.length);
  const maxErrors = Math.floor(wanted.length * allowedEditShare);
  if (maxErrors === 0) return null;

  const pieces = maxErrors + 1;
  const pieceLength = Math.floor(wanted.length / pieces);
  const windows: [number, number][] = [];
  for (let piece = 0; piece < pieces && pieceLength > 0; piece++) {
    const at = piece * pieceLength;
    const text = wanted.slice(at, at + pieceLength);
    const hits: number[] = [];
    for (let from = index.text.indexOf(text); from >= 0; from = index.text.indexOf(text, from + 1)) {
      hits.push(from);
      if (hits.length > maxAnchorHits) break;
    }
    if (hits.length > maxAnchorHits) continue;
    for (const hit of hits) {
      windows.push([
        Math.max(0, hit - at - maxErrors),
        Math.min(index.text.length, hit - at + wanted.length + maxErrors),
      ]);
    }
  }
  if (windows.length === 0) return null;
  windows.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const window of windows) {
    const last = merged.at(-1);
    if (last && window[0] <= last[1]) last[1] = Math.max(last[1], window[1]);
    else merged.push([window[0], window[1]]);
  }
  const covered = merged.reduce((sum, [start, end]) => sum + end - start, 0);
  const regions: [number, number][] =
    covered > index.text.length * windowShareOfText ? [[0, index.text.length]] : merged;
  let best: { start: number; end: number; errors: number } | null = null;
  for (const [start, end] of regions) {
    for (const found of search(index.text.slice(start, end), wanted, maxErrors)) {
      if (!best || found.errors < best.errors)
        best = { start: start + found.start, end: start + found.end, errors: found.errors };
    }
  }
  return best ? matchAt(index, best.start, best.end) : null;
}

function matchAt(index: QuoteIndex, start: number, end: number): QuoteMatch | null {
  const passageIndex = index.passageOf[start] ?? 0;
  const passage = index.passages[passageIndex];
  if (!passage) return null;
  const from = index.offsetOf[start] ?? 0;
  const lastSamePassage = (index.passageOf[end - 1] ?? passageIndex) === passageIndex;
  const to = lastSamePassage ? (index.offsetOf[end - 1] ?? from) + 1 : passage.text.length;
  return { passage, paragraph: paragraphAround(passage.text, from, to) };
}

/** The paragraph (between blank lines) holding text[from, to), cut around it when longer than the cap. */
function paragraphAround(text: string, from: number, to: number): string {
  const before = text.lastIndexOf('\n\n', from);
  const after = text.indexOf('\n\n', to);
  let start = before < 0 ? 0 : before + 2;
  let end = after < 0 ? text.length : after;
  if (end - start > maxParagraphChars) {
    const spare = Math.max(0, maxParagraphChars - (to - from));
    start = Math.max(start, from - Math.floor(spare / 2));
    end = Math.min(end, start + Math.max(maxParagraphChars, to - from));
  }
  return text.slice(start, end).trim();
}
