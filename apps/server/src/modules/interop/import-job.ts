/**
 * The entry of an import's reading process (see import-runner.ts): one uploaded file read into cards and images
 * (import-parser.ts), sent to the server in slices so that no single message is large to decode on its event loop.
 * A package that loops in SQLite, allocates without end or crashes a native module ends this process only.
 */

import { announceJobStart } from '../../adapters/workers/process-pool';
import { yieldCpuToServer } from '../../adapters/workers/worker-entry';
import {
  describeParseError,
  type ImportRefusal,
  type ParsedCard,
  type ParsedMedia,
  type ParseInput,
  type ParseResult,
  parseImport,
} from './import-parser';

yieldCpuToServer();

/** Sent while the job runs: the cards a slice at a time, and each image. */
export type ImportJobEvent = { cards: ParsedCard[] } | { media: ParsedMedia };

/** The job's answer after its events: the counts (cards and media were sent as events), or why it was refused. */
export type ImportJobResult = { done: Omit<ParseResult, 'cards' | 'media'> } | { refused: ImportRefusal };

const sliceSize = 2000;

const send = (event: ImportJobEvent) =>
  new Promise<void>((resolve) => {
    if (!process.send) return resolve();
    process.send(event, undefined, undefined, () => resolve());
  });

export async function readImport(input: ParseInput): Promise<ImportJobResult> {
  announceJobStart();
  let parsed: ParseResult;
  try {
    parsed = await parseImport(input);
  } catch (error) {
    return { refused: describeParseError(error) };
  }
  const { cards, media, ...counts } = parsed;
  for (let start = 0; start < cards.length; start += sliceSize)
    await send({ cards: cards.slice(start, start + sliceSize) });
  for (const item of media) await send({ media: item });
  return { done: counts };
}
