import Papa from 'papaparse';

export class InvalidTextFileError extends Error {
  override name = 'InvalidTextFileError';
}

export interface TextNote {
  question: string;
  answer: string;
  /** From Anki's `#guid column:`. */
  guid?: string;
  /** From Anki's `#deck column:`. */
  deck?: string;
}

export interface TextFile {
  /** Anki's `#html:true`: fields are HTML. Otherwise plain text, taken as markdown. */
  html: boolean;
  /** Anki's `#deck:` header. */
  deck?: string;
  notes: TextNote[];
}

const separators: Record<string, string> = {
  tab: '\t',
  comma: ',',
  semicolon: ';',
  space: ' ',
  pipe: '|',
  colon: ':',
};

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
 * Reads Anki's text export (`#separator:`, `#html:`, `#deck:`, `#notetype:`, `#columns:`, `#deck column:`,
 * `#guid column:` headers), a CSV or TSV with two columns (question, answer), or Quizlet's export (term, a tab or
 * a comma, definition; one card a line). `kind` is the file's extension.
 */
export function parseTextFile(text: string, kind: 'txt' | 'csv' | 'tsv'): TextFile {
  const lines = text.split(/\r\n|\n|\r/);
  const headers = new Map<string, string>();
  let first = 0;
  while (first < lines.length && /^#[a-z ]+:/i.test(lines[first] ?? '')) {
    const line = lines[first] as string;
    const colon = line.indexOf(':');
    headers.set(line.slice(1, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    first += 1;
  }
  const body = lines.slice(first).join('\n');
  const html = /^(true|yes|1)$/i.test(headers.get('html') ?? '');
  const deck = headers.get('deck') || undefined;
  const column = (name: string) => {
    const value = Number(headers.get(name));
    return Number.isInteger(value) && value > 0 ? value - 1 : -1;
  };
  const guidColumn = column('guid column');
  const deckColumn = column('deck column');
  const special = new Set([guidColumn, deckColumn, column('notetype column'), column('tags column')]);

  const declared = headers.get('separator');
  let delimiter: string | undefined;
  if (declared) delimiter = separators[declared.toLowerCase()] ?? declared.slice(0, 1);
  else if (kind === 'tsv') delimiter = '\t';
  else if (kind === 'csv') delimiter = ',';

  if (!delimiter && headers.size === 0) return { html, notes: quizletLines(body) };

  const parsed = Papa.parse<string[]>(body, { delimiter: delimiter ?? '\t', skipEmptyLines: 'greedy' });
  let rows = parsed.data;
  if (rows.length > 0 && !headers.has('columns') && isHeaderRow(rows[0] as string[])) rows = rows.slice(1);
  const notes: TextNote[] = [];
  for (const row of rows) {
    const fields = row.filter((_value, index) => !special.has(index));
    const note: TextNote = { question: (fields[0] ?? '').trim(), answer: (fields[1] ?? '').trim() };
    const guid = guidColumn >= 0 ? row[guidColumn]?.trim() : undefined;
    if (guid) note.guid = guid;
    const rowDeck = deckColumn >= 0 ? row[deckColumn]?.trim() : undefined;
    if (rowDeck) note.deck = rowDeck;
    notes.push(note);
  }
  return deck ? { html, deck, notes } : { html, notes };
}

const headerWords = /^(question|front|term|word|q)$/i;

/** A first row like "question,answer" or "Front,Back" names the columns: it is not a card. */
function isHeaderRow(row: string[]): boolean {
  return (
    row.length >= 2 &&
    headerWords.test((row[0] ?? '').trim()) &&
    /^(answer|back|definition|meaning|a)$/i.test((row[1] ?? '').trim())
  );
}

/** Quizlet: one card a line, the term and definition split at the first tab, else the first comma. */
function quizletLines(body: string): TextNote[] {
  const notes: TextNote[] = [];
  for (const line of body.split('\n')) {
    if (line.trim() === '') continue;
    const tab = line.indexOf('\t');
    const at = tab >= 0 ? tab : line.indexOf(',');
    notes.push(
      at >= 0
        ? { question: line.slice(0, at).trim(), answer: line.slice(at + 1).trim() }
        : { question: line.trim(), answer: '' },
    );
  }
  return notes;
}
