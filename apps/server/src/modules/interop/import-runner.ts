import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ParseInput, ParseResult } from './import-parser';

/** The file could not be read (damaged, not a package, over the unpacked-size cap, too slow). */
export class ImportUnreadableError extends Error {
  override name = 'ImportUnreadableError';
}

/** Too many imports are being read or waiting already: try again later (503 busy). */
export class ImportBusyError extends Error {
  override name = 'ImportBusyError';
}

export type ImportParser = (input: ParseInput) => Promise<ParseResult>;

/**
 * At most `running` imports are read at once (each worker may use up to its heap ceiling); up to `waiting` more
 * wait their turn, and beyond that an import is refused at once rather than piling up memory.
 */
export function limitImports(parse: ImportParser, limits: { running: number; waiting: number }): ImportParser {
  let active = 0;
  const queue: (() => void)[] = [];
  return async (input) => {
    if (active >= limits.running) {
      if (queue.length >= limits.waiting) throw new ImportBusyError('too many imports at once');
      await new Promise<void>((resolve) => queue.push(resolve));
    }
    active += 1;
    try {
      return await parse(input);
    } finally {
      active -= 1;
      queue.shift()?.();
    }
  };
}

const here = fileURLToPath(import.meta.url);
const workerFile = path.join(path.dirname(here), `import-worker${path.extname(here)}`);
// Under tsx (development, tests) the worker is TypeScript too: a small bootstrap loads it through tsx's API.
const workerSource =
  path.extname(here) === '.ts'
    ? new URL(
        `data:text/javascript,${encodeURIComponent(
          `import { tsImport } from ${JSON.stringify(
            pathToFileURL(
              createRequire(import.meta.url)
                .resolve('tsx/esm/api')
                .replace(/\.cjs$/, '.mjs'),
            ).href,
          )}; await tsImport(${JSON.stringify(pathToFileURL(workerFile).href)}, ${JSON.stringify(import.meta.url)});`,
        )}`,
      )
    : workerFile;

/**
 * Parses an import in its own worker thread, so that unzipping, SQLite reads and HTML conversion never block the
 * server's event loop; the worker has a memory ceiling and a deadline, and is ended either way.
 */
export function createWorkerImportParser(options: { timeoutMs: number; maxHeapMb: number }): ImportParser {
  return (input) =>
    new Promise<ParseResult>((resolve, reject) => {
      const worker = new Worker(workerSource, {
        workerData: input,
        resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb },
        stdout: false,
        stderr: false,
      });
      let settled = false;
      const finish = (action: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        action();
        void worker.terminate();
      };
      const timer = setTimeout(
        () => finish(() => reject(new ImportUnreadableError('reading the file took too long'))),
        options.timeoutMs,
      );
      worker.on(
        'message',
        (message: { ok: true; result: ParseResult } | { ok: false; invalid: boolean; reason: string }) => {
          finish(() => {
            if (message.ok) resolve(message.result);
            else if (message.invalid) reject(new ImportUnreadableError(message.reason));
            else reject(new Error(`import worker failed: ${message.reason}`));
          });
        },
      );
      worker.on('error', (error) => {
        const outOfMemory = (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
        finish(() => reject(outOfMemory ? new ImportUnreadableError('the file needs too much memory') : error));
      });
      worker.on('exit', (code) => {
        finish(() => reject(new Error(`import worker exited with code ${code}`)));
      });
    });
}
