import { open, rm } from 'node:fs/promises';
import { deserialize } from 'node:v8';
import { createIsolatedRunner } from '../../adapters/workers/isolated-runner';
import { JobFailedError, type JobFailure, PoolBusyError } from '../../adapters/workers/process-pool';
import type { ImportJobResult, ImportSlice } from './import-job';
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
  /** Starts the broker process now (forking it from the server stalls the event loop once, so not mid-request). */
  warm(): void;
  close(): Promise<void>;
}

/** The slices a reading process wrote, one per turn of the event loop; the file is removed once read. */
async function* readSlices(file: string): AsyncGenerator<ImportSlice> {
  const handle = await open(file, 'r');
  try {
    const header = Buffer.alloc(4);
    let position = 0;
    for (;;) {
      const { bytesRead } = await handle.read(header, 0, 4, position);
      if (bytesRead < 4) return;
      const body = Buffer.alloc(header.readUInt32LE(0));
      await handle.read(body, 0, body.length, position + 4);
      position += 4 + body.length;
      yield deserialize(body) as ImportSlice;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } finally {
    await handle.close();
    await rm(file, { force: true });
  }
}

/**
 * Reads each import in a child process of its own (workers/isolated-runner.ts, the containment uploads use): killed
 * at IMPORT_TIMEOUT and at IMPORT_MEMORY_MB of resident memory, ended when the client leaves; at most `workers`
 * read at once and `queue` more wait (beyond: busy). The server only reads back the slices the process wrote.
 */
export function createIsolatedImportParser(options: {
  timeoutMs: number;
  memoryBytes: number;
  workers: number;
  queue: number;
  onKill?: (reason: string) => void;
}): ImportParserHandle {
  const runner = createIsolatedRunner<ParseInput, ImportJobResult>(
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
      let answer: ImportJobResult;
      try {
        answer = await runner.run(input, parseOptions.signal ? { signal: parseOptions.signal } : {});
      } catch (error) {
        if (error instanceof PoolBusyError) throw new ImportBusyError(error.message);
        if (error instanceof JobFailedError) throw new ImportKilledError(error.failure);
        throw error;
      }
      if ('refused' in answer) throw new ImportRefusedError(answer.refused);
      const notes: ParseResult['notes'] = [];
      const media: ParseResult['media'] = [];
      for await (const slice of readSlices(answer.slices)) {
        if ('notes' in slice) for (const note of slice.notes) notes.push(note);
        else media.push(slice.media);
      }
      return { ...answer.done, notes, media };
    },
    warm: runner.warm,
    close: runner.close,
  };
}
