/**
 * The entry of an import's reading process (see import-runner.ts): one uploaded file read into notes and images
 * (import-parser.ts), written beside the upload as length-prefixed slices that the server reads back one at a time,
 * yielding between them (sent over IPC, the slices arrived together and were decoded in one turn of its event
 * loop). A package that loops in SQLite, allocates without end or crashes a native module ends this process only.
 */

import { open } from 'node:fs/promises';
import path from 'node:path';
import { serialize } from 'node:v8';
import { announceJobStart } from '../../adapters/workers/process-pool';
import { yieldCpuToServer } from '../../adapters/workers/worker-entry';
import {
  describeParseError,
  type ImportRefusal,
  type ParsedMedia,
  type ParsedNote,
  type ParseInput,
  type ParseResult,
  parseImport,
} from './import-parser';

yieldCpuToServer();

/** One slice of the result file: notes, or one image. */
export type ImportSlice = { notes: ParsedNote[] } | { media: ParsedMedia };

/** The job's answer: the counts and the file of slices (cards and images), or why the file was refused. */
export type ImportJobResult =
  | { done: Omit<ParseResult, 'notes' | 'media'>; slices: string }
  | { refused: ImportRefusal };

const sliceSize = 2000;

export async function readImport(input: ParseInput): Promise<ImportJobResult> {
  announceJobStart();
  let parsed: ParseResult;
  try {
    parsed = await parseImport(input);
  } catch (error) {
    return { refused: describeParseError(error) };
  }
  const { notes, media, ...counts } = parsed;
  const slices = path.join(path.dirname(input.filePath), 'parsed-slices');
  const file = await open(slices, 'w', 0o600);
  try {
    const write = async (slice: ImportSlice) => {
      const body = serialize(slice);
      const header = Buffer.alloc(4);
      header.writeUInt32LE(body.length);
      await file.write(header);
      await file.write(body);
    };
    for (let start = 0; start < notes.length; start += sliceSize)
      await write({ notes: notes.slice(start, start + sliceSize) });
    for (const item of media) await write({ media: item });
  } finally {
    await file.close();
  }
  return { done: counts, slices };
}
