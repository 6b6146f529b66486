import { createIsolatedRunner } from '../../adapters/workers/isolated-runner';
import { JobFailedError, type JobFailure, PoolBusyError } from '../../adapters/workers/process-pool';
import type { ImportJobEvent, ImportJobResult } from './import-job';
import type { ImportRefusal, ParseInput, ParseResult } from './import-parser';

/** The file was refused: unreadable, a hostile schema or template, or more cards than the account has room for. */
export class ImportRefusedError extends Error {
  override name = 'ImportRefusedError';
  constructor(readonly refusal: ImportRefusal) {
    super(refusal.reason);
  }
}

/** Reading the file was stopped: past its time or memory, or its process died, or the client left. */
export class ImportKilledError extends Error {
  override name = 'ImportKilledError';
  constructor(readonly failure: JobFailure) {
    super(failure);
  }
}

/** Too many imports are being read or waiting already: try again later (503 busy). */
export class ImportBusyError extends Error {
  override name = 'ImportBusyError';
}

export type ImportParser = (input: ParseInput, options?: { signal?: AbortSignal }) => Promise<ParseResult>;

export interface ImportParserHandle {
  parse: ImportParser;
  close(): Promise<void>;
}

/**
 * Reads each import in a child process of its own (workers/isolated-runner.ts, the containment uploads use): killed
 * at IMPORT_TIMEOUT and at IMPORT_MEMORY_MB of resident memory, ended when the client leaves; at most `workers`
 * read at once and `queue` more wait (beyond: busy). The server only gathers the slices the process sends.
 */
export function createIsolatedImportParser(options: {
  timeoutMs: number;
  memoryBytes: number;
  workers: number;
  queue: number;
  onKill?: (reason: string) => void;
}): ImportParserHandle {
  const runner = createIsolatedRunner<ParseInput, ImportJobResult, ImportJobEvent>(
    { url: import.meta.url, name: 'import-job', exportName: 'readImport', label: 'import-broker' },
    {
      workers: options.workers,
      queue: options.queue,
      timeoutMs: options.timeoutMs,
      memoryBytes: options.memoryBytes,
      ...(options.onKill ? { onKill: options.onKill } : {}),
    },
  );
  return {
    async parse(input, parseOptions = {}) {
      const cards: ParseResult['cards'] = [];
      const media: ParseResult['media'] = [];
      let answer: ImportJobResult;
      try {
        answer = await runner.run(input, {
          ...(parseOptions.signal ? { signal: parseOptions.signal } : {}),
          onMessage: (event) => {
            if ('cards' in event) for (const card of event.cards) cards.push(card);
            else media.push(event.media);
          },
        });
      } catch (error) {
        if (error instanceof PoolBusyError) throw new ImportBusyError(error.message);
        if (error instanceof JobFailedError) throw new ImportKilledError(error.failure);
        throw error;
      }
      if ('refused' in answer) throw new ImportRefusedError(answer.refused);
      return { ...answer.done, cards, media };
    },
    close: runner.close,
  };
}
