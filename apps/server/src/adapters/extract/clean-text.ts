import { isCodeLine } from '../ai/offline/code-lines';
import type { Passage } from './extracted';

/**
 * Cleans the text every extractor returns before any card is made from it: repairs mojibake, rejoins words
 * hyphenated across lines, drops running headers and footers, page numbers, tables of contents, copyright and
 * version boilerplate and markup debris (HTML tags, badges, link targets), and fences code blocks and interactive
 * prompts with ``` so that they are never blanked or split into sentences. URLs, code and formulas are kept whole.
 * Pure: the same passages give the same result; passages left empty are dropped.
 */
export function cleanPassages(passages: Passage[]): Passage[] {
  const repeated = repeatedEdgeLines(passages.map((passage) => passage.text.split('\n')));
  const out: Passage[] = [];
  for (const passage of passages) {
    const text = cleanText(passage.text, repeated);
    if (text) out.push({ ...passage, text });
  }
  return rejoinAcrossPages(out);
}

/**
 * A sentence that a page break cut ("… to be turned into a" | "Debian package, and so …") is made whole on the
 * page where it starts: the next page's lines up to the end of that sentence move back (five lines at most).
 */
function rejoinAcrossPages(passages: Passage[]): Passage[] {
  for (let i = 0; i + 1 < passages.length; i++) {
    const current = passages[i] as Passage;
    const next = passages[i + 1] as Passage;
    if (/[.!?:。！？：]\s*$|```\s*$/.test(current.text)) continue;
    const lines = next.text.split('\n');
    if (!/^\p{Ll}/u.test(lines[0] ?? '')) continue;
    const end = lines.slice(0, 5).findIndex((line) => /[.!?。！？]$/.test(line));
    if (end < 0) continue;
    passages[i] = { ...current, text: `${current.text}\n${lines.slice(0, end + 1).join('\n')}` };
    passages[i + 1] = {
      ...next,
      text: lines
        .slice(end + 1)
        .join('\n')
        .trim(),
    };
  }
  return passages.filter((passage) => passage.text);
}

/** One passage's text, cleaned (`repeated`: running header/footer lines found across pages, digits as #). */
export function cleanText(raw: string, repeated: Set<string> = new Set()): string {
  let text = repairMojibake(raw.replace(/\r\n?/g, '\n').normalize('NFC')).replace(/\u00ad/g, '');
  text = rejoinHyphenated(text);
  const lines: string[] = [];
  let inFence = false;
  let inToc = false;
  for (const original of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(original)) {
      inFence = !inFence;
      inToc = false;
      lines.push('```');
      continue;
    }
    if (inFence) {
      lines.push(original);
      continue;
    }
    const line = stripMarkup(original).trim();
    if (!line) {
      inToc = false;
      lines.push('');
      continue;
    }
    if (repeated.has(edgeKey(line)) || isBoilerplate(line)) continue;
    if (tocHeading.test(line)) {
      inToc = true;
      continue;
    }
    if (inToc && line.length <= 60 && !/[.!?。！？]$/.test(line)) continue;
    inToc = false;
    lines.push(line);
  }
  return fenceCode(lines)
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

// --- mojibake -------------------------------------------------------------------------------------------------

// windows-1252's 0x80–0x9f as Unicode; the rest of Latin-1 maps to itself.
const cp1252High = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const mojibake = /[ÃÂâÅÆÐÑØ][\u0080-\u00bf€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]/g;

function toCp1252Bytes(text: string): Uint8Array | null {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80 || (code >= 0xa0 && code <= 0xff)) bytes[i] = code;
    else {
      const at = cp1252High.indexOf(text[i] ?? '');
      if (at < 0) return null;
      bytes[i] = 0x80 + at;
    }
  }
  return bytes;
}

/** UTF-8 text that was decoded as windows-1252 ("cafÃ©", "donâ€™t") is decoded again, run by run. */
export function repairMojibake(text: string): string {
  if (!mojibake.test(text)) return text;
  // Re-decode each run of non-ASCII Latin-1/cp1252 characters on its own, so correct text around it is kept.
  return text.replace(/[\u0080-\u00ff€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]{2,}/g, (run) => {
    const bytes = toCp1252Bytes(run);
    if (!bytes) return run;
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return run;
    }
  });
}

// --- hyphenation ----------------------------------------------------------------------------------------------

/**
 * "manip-\nulation" → "manipulation"; a hyphen that belongs to the word ("upstream-\nversion" where the text also
 * writes "upstream-version") is kept, and the line break goes either way.
 */
export function rejoinHyphenated(text: string): string {
  return text.replace(
    /(\p{L}+)([-‐])\n[ \t]*(\p{Ll}[\p{L}]*)/gu,
    (_match, head: string, hyphen: string, tail: string) => {
      const compound = `${head}-${tail}`;
      const keep =
        hyphen === '-' &&
        (new RegExp(`(^|[^\\p{L}])${escapeRegExp(compound)}(?!\\p{L})`, 'iu').test(text) ||
          (!new RegExp(`${escapeRegExp(head + tail)}`, 'iu').test(text.replace(/\n/g, ' ')) && /^\p{Lu}/u.test(tail)));
      return keep ? compound : `${head}${tail}`;
    },
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// --- headers, footers, boilerplate ----------------------------------------------------------------------------

const edgeKey = (line: string) => line.trim().replace(/\d+/g, '#').replace(/\s+/g, ' ').toLowerCase();

/**
 * Lines among the first or last three (a quarter of a short page) of at least half the pages (two at least),
 * digits ignored.
 */
function repeatedEdgeLines(pages: string[][]): Set<string> {
  const counts = new Map<string, number>();
  for (const lines of pages) {
    const nonEmpty = lines.filter((line) => line.trim());
    // A short page's lines are not all at its edges: at most a quarter of them on each side counts.
    const depth = Math.max(1, Math.min(3, Math.floor(nonEmpty.length / 4)));
    const edges = new Set([...nonEmpty.slice(0, depth), ...nonEmpty.slice(-depth)].map(edgeKey));
    for (const key of edges) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const out = new Set<string>();
  if (pages.length < 2) return out;
  for (const [key, count] of counts) {
    if (count >= Math.max(2, Math.ceil(pages.length / 2)) && key.length <= 120 && /[\p{L}#]/u.test(key)) out.add(key);
  }
  return out;
}

const boilerplate = [
  /^(page|p\.|seite|página|pagina|ページ)?\s*\d{1,4}(\s*(\/|of|von|de|sur|di)\s*\d{1,4})?$/i, // page numbers
  /^\d{1,2}\/\d{1,2}\/\d{2,4},?\s+\d{1,2}:\d{2}(\s?[ap]\.?m\.?)?\b/i, // a browser's print header (date, time, title)
  /^(f\s?i\s?le|https?):\/\/\S+\s+\d+\s*\/\s*\d+$/i, // a browser's print footer (address, page/pages)
  /^(\S+\(\d\w*\)).*\s\1$/, // a man page's header: NAME(1) … NAME(1)
  /^\S+\s+\d{4}-\d{2}-\d{2}\s+\S+\(\d\w*\)$/, // a man page's footer: version, date, NAME(1)
  /^(©|\(c\)\s*\d{4}|copyright\b(?=.*(\b(19|20)\d{2}\b|©|\(c\))).{0,120}$)/i, // a notice, not a sentence starting "copyright"
  /\ball rights reserved\b/i,
  /^.{0,40}\b(last (updated|modified|revised)|updated on|published on)\b.{0,40}$/i,
  /^(version|release|rev\.?|v)\s*\d+(\.\d+)*\s*$/i,
  /\.{4,}\s*\d+$|…{2,}\s*\d+$/, // table-of-contents lines with dot leaders
  /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/, // a markdown table's rule
  /^[^.!?。]{1,40}(\s\|\s[^.!?。]{1,40}){2,}$/, // a navigation bar: "Home | Docs | Blog"
];

function isBoilerplate(line: string): boolean {
  return boilerplate.some((pattern) => pattern.test(line));
}

const tocHeading =
  /^(#+\s*)?(table of contents|contents|índice|tabla de contenidos|sommaire|table des matières|inhalt|inhaltsverzeichnis|indice|sumário|目次|目录|목차)\s*:?$/i;

// --- markup ---------------------------------------------------------------------------------------------------

/** What a reader sees of a line of markdown or HTML: link texts, no images, badges, tags or link targets. */
function stripMarkup(line: string): string {
  if (/^\s*\[[^\]]+\]:\s*\S+/.test(line)) return ''; // a reference-link definition
  return line
    .replace(/\[!\[[^\]]*\]\([^)]*\)\]\([^)]*\)/g, '') // badges: [![alt](image)](link)
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '') // images
    .replace(/\[([^\]]+)\]\((?:[^()]|\([^)]*\))*\)/g, '$1') // [text](target)
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1') // [text][ref]
    .replace(/<\/?(a|h[1-6]|p|div|span|img|br|sup|sub|b|i|em|strong|details|summary|picture|source)\b[^>]*>/gi, '')
    .replace(/^\s*>(?=\s|$)\s?/, '') // a quotation's marker (not a ">>>" prompt)
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/^\s*\|(.*)\|\s*$/, (_row, cells: string) =>
      cells
        .split('|')
        .map((cell) => cell.trim())
        .filter(Boolean)
        .join(' — '),
    );
}

// --- code -----------------------------------------------------------------------------------------------------

/** Runs of code lines outside fences get fences of their own (a short line between two code lines is code too). */
function fenceCode(lines: string[]): string[] {
  const fenced: boolean[] = [];
  let inFence = false;
  for (const line of lines) {
    if (line === '```') inFence = !inFence;
    fenced.push(inFence || line === '```');
  }
  const code = lines.map((line, i) => !fenced[i] && isCodeLine(line));
  for (let i = 1; i < lines.length - 1; i++) {
    const line = lines[i] ?? '';
    if (code[i] || fenced[i] || !line.trim() || line.length > 80 || /[.!?。]\s|[:：]$/.test(line)) continue;
    if (/\s\p{Ll}+\s\p{Ll}+\s/u.test(` ${line} `)) continue;
    if (code[i - 1] && code[i + 1]) code[i] = true;
  }
  const out: string[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length) out.push('```', ...run, '```');
    run = [];
  };
  lines.forEach((line, i) => {
    if (code[i]) {
      run.push(line);
      return;
    }
    flush();
    out.push(line);
  });
  flush();
  return out;
}
