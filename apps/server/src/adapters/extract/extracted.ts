import { readFile } from 'node:fs/promises';
import { rejoinLigatures } from './ligatures';

/** The file types /create accepts, decided by content (magic bytes), never by name or declared MIME type. */
export type FileKind = 'pdf' | 'txt' | 'docx' | 'doc' | 'pptx' | 'jpg' | 'png';

/**
 * An uploaded file as the parsers receive it: its bytes, or the path of the temporary file the upload was streamed to
 * (the server never holds a large upload in memory; the parser process reads it).
 */
export type FileSource = Uint8Array | { path: string };

/** The bytes of an uploaded file, read from its temporary file when it was given by path. */
export async function readFileSource(file: FileSource): Promise<Buffer> {
  if ('path' in file) return readFile(file.path);
  return Buffer.isBuffer(file) ? file : Buffer.from(file.buffer, file.byteOffset, file.byteLength);
}

/** A stretch of extracted text and where it came from, so that cards can point back to their source. */
export interface Passage {
  text: string;
  /** 1-based page of a PDF. */
  page?: number;
  /** 1-based slide of a PPTX, in presentation order. */
  slide?: number;
}

/** The leading passages up to `maxChars` characters in all (the last one cut), in source order. */
export function limitPassages(passages: Passage[], maxChars: number): Passage[] {
  const out: Passage[] = [];
  let left = maxChars;
  for (const passage of passages) {
    if (left <= 0) break;
    out.push(passage.text.length <= left ? passage : { ...passage, text: passage.text.slice(0, left) });
    left -= passage.text.length;
  }
  return out;
}

/** The file could not be read: damaged, encrypted, too large once unpacked, or too slow to parse. */
export class UnreadableFileError extends Error {
  override name = 'UnreadableFileError';
}

/**
 * Rejoins ligatures (ligatures.ts), then collapses runs of spaces and blank lines; keeps single line breaks (lists, headings) and tabs (the separator of
 * a "term<tab>meaning" vocabulary line).
 */
export function tidyText(text: string): string {
  return rejoinLigatures(text)
    .replace(/\r\n?/g, '\n')
    .replace(/[ \u00a0]*\t[ \t\u00a0]*/g, '\t')
    .replace(/[ \u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Runs `work` with a signal that aborts after `ms` or when `signal` does; at the deadline it throws UnreadableFileError
 * at once, whether or not the work has noticed the abort yet.
 */
export async function withDeadline<T>(
  ms: number,
  work: (signal: AbortSignal) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const deadline = AbortSignal.timeout(ms);
  const expired = new Promise<never>((_, reject) => {
    const fail = () => reject(new UnreadableFileError(`extraction took longer than ${ms} ms`));
    deadline.addEventListener('abort', fail, { once: true });
  });
  return await Promise.race([work(signal ? AbortSignal.any([signal, deadline]) : deadline), expired]);
}

/** How far a file has been read: pages of a PDF, slides of a PPTX (`total` 1 for a single-part file). */
export interface ExtractProgress {
  done: number;
  total: number;
}
