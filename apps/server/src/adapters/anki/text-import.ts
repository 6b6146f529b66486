import Papa from 'papaparse';

export class InvalidTextFileError extends Error {
  override name = 'InvalidTextFileError';
}

/** The note types a text row can make (Anki's `#notetype:` header or notetype column picks one). */
export type TextNoteType = 'basic' | 'reversed' | 'cloze';

/** One row of the file as a note: front and back, or (cloze) the text and its optional extra. */
export interface TextRow {
  /** The row's first line in the file, counted from 1 (header and comment lines included). */
  line: number;
  type: TextNoteType;
  /** Basic and reversed: the front; cloze: the text. */
  front: string;
  /** Basic and reversed: the back; cloze: the extra (may be empty). */
  back: string;
  /** From Anki's `#guid column:`. */
  guid?: string;
  /** From Anki's `#deck column:`. */
  deck?: string;
}

/** Why a row was left out before it became a note. */
export type TextSkipReason = 'emptyFront' | 'emptyBack' | 'repeat' | 'noCloze';

export interface TextFile {
  /** Anki's `#html:true` (or, without the header, HTML found in the first rows): fields are HTML, else markdown. */
  html: boolean;
  /** Anki's `#deck:` header. */
  deck?: string;
  rows: TextRow[];
  /** Rows that repeat an earlier row, with their line. */
  repeats: number[];
}

/** Anki's separators (rslib csv metadata), in the order Anki tries them when it guesses. */
const separators: [name: string, char: string][] = [
  ['tab', '\t'],
  ['pipe', '|'],
  ['semicolon', ';'],
  ['colon', ':'],
  ['comma', ','],
  ['space', ' '],
];

/** Rows looked at to guess the separator and whether fields are HTML (Anki's preview is 5 rows). */
const GUESS_LINES = 5;

/** Decodes UTF-8 (a BOM dropped); anything else is not a text file we can read. */
export function decodeText(bytes: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new InvalidTextFileError('not UTF-8 text');
  }
  if (text.includes('\0')) throw new InvalidTextFileError('binary content');
  return text.replace(/^\uFEFF/, '');
}

/**
 * Anki trims what follows a header's value when a header line was written out as a record (`#separator:Pipe,,,`):
 * from the second character on, the value ends at the first character that is not an ASCII letter or digit.
 */
function trimmedValue(value: string): string {
  const chars = [...value];
  if (chars.length < 2) return value;
  let end = 1;
  while (end < chars.length && /[A-Za-z0-9]/.test(chars[end] as string)) end += 1;
  return chars.slice(0, end).join('');
}

function separatorFromValue(value: string): string | undefined {
  const trimmed = trimmedValue(value);
  const lower = trimmed.toLowerCase();
  return separators.find(([name, char]) => lower.trim() === name || trimmed === char)?.[1];
}

/** A note type named in a header or a column: Anki's stock names (English) or ours; anything else is basic. */
function noteTypeFromName(name: string): TextNoteType | 'optional' {
  const normal = name.trim().toLowerCase();
  if (normal === 'cloze') return 'cloze';
  if (normal === 'reversed' || normal === 'basic (and reversed card)') return 'reversed';
  if (normal === 'basic (optional reversed card)') return 'optional';
  return 'basic';
}

/** Column names (Anki's `#columns:`) that name a note field, whatever the note type. */
const fieldNames: [RegExp, 'front' | 'back' | 'addReverse'][] = [
  [/^(front|question|term|word|q|text)$/i, 'front'],
  [/^(back|answer|definition|meaning|a|extra|back extra)$/i, 'back'],
  [/^add reverse$/i, 'addReverse'],
];

const htmlTag = /<[a-z!/][^>]*>/i;
const blank = (value: string | undefined) => (value ?? '').trim() === '';

/**
 * Reads a text file in Anki's text format (rslib/src/import_export/text/csv): header lines at the top
 * (`#separator:`, `#html:`, `#columns:`, `#deck:`, `#notetype:`, `#tags column:`, `#guid column:`, `#deck column:`,
 * `#notetype column:`), every other line that starts with `#` a comment, one separator for the whole file (the
 * header's; else a .tsv is tab-separated, a .csv comma-separated, and a .txt's is guessed once from its first rows),
 * fields quoted as in CSV. Rows that repeat an earlier row are returned apart (`repeats`); rows with every cell
 * empty are blank lines. `kind` is the file's extension.
 */
export function parseTextFile(text: string, kind: 'txt' | 'csv' | 'tsv'): TextFile {
  const source = text.replace(/\r\n?/g, '\n');
  // Header lines: consecutive lines starting with '#' at the top; `#key:value` sets a header, others are comments.
  const headers = new Map<string, string>();
  let bodyStart = 0;
  let headerLines = 0;
  while (bodyStart < source.length && source[bodyStart] === '#') {
    const end = source.indexOf('\n', bodyStart);
    const line = source.slice(bodyStart + 1, end < 0 ? source.length : end);
    const colon = line.indexOf(':');
    if (colon >= 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1));
    headerLines += 1;
    bodyStart = end < 0 ? source.length : end + 1;
  }
  const body = source.slice(bodyStart);

  const declared = headers.has('separator') ? separatorFromValue(headers.get('separator') ?? '') : undefined;
  const delimiter =
    declared ?? (kind === 'tsv' ? '\t' : kind === 'csv' ? ',' : guessSeparator(firstDataLines(body, GUESS_LINES)));
  const column = (name: string) => {
    const value = Number(trimmedValue((headers.get(name) ?? '').trim()));
    return Number.isInteger(value) && value > 0 ? value - 1 : -1;
  };
  const guidColumn = column('guid column');
  const deckColumn = column('deck column');
  const notetypeColumn = column('notetype column');
  const meta = new Set([guidColumn, deckColumn, notetypeColumn, column('tags column')]);
  meta.delete(-1);
  const globalType = noteTypeFromName(headers.get('notetype') ?? '');
  const deck = (headers.get('deck') ?? '').trim() || undefined;

  // Which cell holds which field: by `#columns:` names where they name one, else the non-meta columns in order.
  const labels = headers.has('columns') ? parseRow(headers.get('columns') ?? '', delimiter) : [];
  const fieldColumns = fieldColumnMap(labels, meta);

  const htmlHeader = trimmedValue((headers.get('html') ?? '').trim()).toLowerCase();
  let html = htmlHeader === 'true';
  const guessHtml = htmlHeader !== 'true' && htmlHeader !== 'false';

  const rows: TextRow[] = [];
  const repeats: number[] = [];
  const seen = new Set<string>();
  let firstRow = true;
  let counted = 0;
  let line = headerLines + 1;
  let previousLine = headerLines;
  let guessed = 0;
  Papa.parse<string[]>(body, {
    delimiter,
    comments: '#',
    skipEmptyLines: true,
    step: (result) => {
      const cells = result.data;
      const cursor = result.meta.cursor;
      // The row's last line: the newlines before its end (its own closing newline left out).
      const end = cursor > 0 && body[cursor - 1] === '\n' ? cursor - 1 : cursor;
      for (let at = counted; at < end; at += 1) if (body.charCodeAt(at) === 10) line += 1;
      counted = end;
      const inside = cells.reduce((sum, cell) => sum + (cell.match(/\n/g)?.length ?? 0), 0);
      // An unclosed quote takes the file's last newline into its field: the row still starts after the previous one.
      const rowLine = Math.max(line - inside, previousLine + 1);
      previousLine = rowLine;
      if (guessHtml && guessed < GUESS_LINES) {
        guessed += 1;
        if (cells.some((cell) => htmlTag.test(cell))) html = true;
      }
      if (cells.every((cell) => blank(cell))) return;
      if (firstRow) {
        firstRow = false;
        if (labels.length === 0 && isHeaderRow(cells)) return;
      }
      const key = cells.map((cell) => cell.trim()).join('\x1f');
      if (seen.has(key)) {
        repeats.push(rowLine);
        return;
      }
      seen.add(key);
      const rowType = notetypeColumn >= 0 ? noteTypeFromName(cells[notetypeColumn] ?? '') : globalType;
      const cell = (index: number | undefined) => (index === undefined ? '' : (cells[index] ?? '').trim());
      const addReverse = cell(fieldColumns.addReverse);
      const type: TextNoteType = rowType === 'optional' ? (blank(addReverse) ? 'basic' : 'reversed') : rowType;
      const row: TextRow = { line: rowLine, type, front: cell(fieldColumns.front), back: cell(fieldColumns.back) };
      const guid = guidColumn >= 0 ? cells[guidColumn]?.trim() : undefined;
      if (guid) row.guid = guid;
      const rowDeck = deckColumn >= 0 ? cells[deckColumn]?.trim() : undefined;
      if (rowDeck) row.deck = rowDeck;
      rows.push(row);
    },
  });
  return deck ? { html, deck, rows, repeats } : { html, rows, repeats };
}

/** The first `count` lines of the body that are neither blank nor comments (what the separator is guessed from). */
function firstDataLines(body: string, count: number): string[] {
  const lines: string[] = [];
  let start = 0;
  while (start < body.length && lines.length < count) {
    const end = body.indexOf('\n', start);
    const line = body.slice(start, end < 0 ? body.length : end);
    if (line.trim() !== '' && !line.startsWith('#')) lines.push(line);
    start = end < 0 ? body.length : end + 1;
  }
  return lines;
}

/**
 * The file's one separator, guessed once: the first of Anki's separators (tab, pipe, semicolon, colon, comma,
 * space) found on every one of the first lines, else the first found on any of them, else tab (one column).
 */
function guessSeparator(lines: string[]): string {
  const everywhere = separators.find(([, char]) => lines.length > 0 && lines.every((line) => line.includes(char)));
  if (everywhere) return everywhere[1];
  return separators.find(([, char]) => lines.some((line) => line.includes(char)))?.[1] ?? '\t';
}

function parseRow(line: string, delimiter: string): string[] {
  return (Papa.parse<string[]>(line.trim(), { delimiter }).data[0] ?? []).map((cell) => cell.trim());
}

/** Each note field's column: named by `#columns:`, else the columns that are not meta columns, in order. */
function fieldColumnMap(labels: string[], meta: Set<number>): Partial<Record<'front' | 'back' | 'addReverse', number>> {
  const map: Partial<Record<'front' | 'back' | 'addReverse', number>> = {};
  labels.forEach((label, index) => {
    if (meta.has(index)) return;
    const field = fieldNames.find(([pattern]) => pattern.test(label))?.[1];
    if (field && map[field] === undefined) map[field] = index;
  });
  const taken = new Set([...meta, ...Object.values(map)]);
  let next = 0;
  for (const field of ['front', 'back', 'addReverse'] as const) {
    if (map[field] !== undefined) continue;
    while (taken.has(next)) next += 1;
    map[field] = next;
    taken.add(next);
  }
  return map;
}

const headerWords = /^(question|front|term|word|q|text)$/i;

/** A first row like "question,answer", "Front,Back" or "Text,Extra" names the columns: it is not a card. */
function isHeaderRow(row: string[]): boolean {
  return (
    row.length >= 2 &&
    headerWords.test((row[0] ?? '').trim()) &&
    /^(answer|back|definition|meaning|a|extra|back extra)$/i.test((row[1] ?? '').trim())
  );
}
