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

/** Runs `work` with a deadline; on expiry calls `onTimeout` (to stop the work) and throws UnreadableFileError. */
export async function withDeadline<T>(ms: number, work: Promise<T>, onTimeout?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout?.();
      reject(new UnreadableFileError(`extraction took longer than ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
