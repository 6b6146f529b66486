import { readFileSync } from 'node:fs';
import { Tinypool } from 'tinypool';
import { workerEntry } from '../workers/worker-entry';
import type { Passage } from './extracted';
import { UnreadableFileError } from './extracted';
import type { ExtractOptions, Extractor, ParserLimits } from './extractor';
import type { ParseResult, ParseTask, WorkerMessage } from './parse-worker';

export interface ParserPoolOptions extends ParserLimits {
  /** Files parsed at the same time, each in its own process. */
  workers: number;
  /** Files waiting for a worker at most; beyond that `ExtractorBusyError`. */
  queue: number;
  /** Time for one file, waiting excluded; past it the worker process is killed. */
  timeoutMs: number;
  /** Resident memory of one worker process; past it the process is killed. */
  memoryBytes: number;
  /** Called when a worker is killed for its time or memory (for the log). */
  onKill?: (reason: string) => void;
}

/** The queue of files waiting for a parser is full: the caller should come back later. */
export class ExtractorBusyError extends Error {
  override name = 'ExtractorBusyError';
}

export interface ParserPool extends Extractor {
  close(): Promise<void>;
}

const memoryPollMs = 25;
const pageSize = 4096;

/**
 * Runs inside the parser broker process (parser-broker.ts; the server talks to it through isolated-extractor.ts).
 * Parses untrusted files in child processes from a tinypool pool, one fresh process per file (isolateWorkers),
 * so a parser that crashes, loops or allocates without end takes down only its own process, and no state from one
 * user's file can reach the next. Child processes rather than worker threads: a thread's resourceLimits cap only
 * V8's heap, while pdf.js's canvas, tesseract's WebAssembly memory and native buffers live outside it; a process's
 * resident memory covers everything, and killing it frees everything. Each job is bounded three ways: a deadline
 * (the process is killed, so a synchronous loop ends too), a resident-memory cap polled from /proc every 25 ms
 * (the process is killed), and V8's heap limit inside the process.
 */
export function createParserPool(options: ParserPoolOptions): ParserPool {
  const worker = workerEntry(import.meta.url, 'parse-worker');
  const heapMb = Math.max(64, Math.floor(options.memoryBytes / 1024 / 1024));
  const pool = new Tinypool({
    runtime: 'child_process',
    filename: worker.file,
    name: 'parse',
    isolateWorkers: true,
    minThreads: 0,
    maxThreads: options.workers,
    maxQueue: options.queue,
    serialization: 'advanced',
    execArgv: [...worker.execArgv, `--max-old-space-size=${heapMb}`],
  });
  const limits: ParserLimits = {
    maxPdfPages: options.maxPdfPages,
    maxOcrPages: options.maxOcrPages,
    maxUnzippedBytes: options.maxUnzippedBytes,
    maxXmlPartBytes: options.maxXmlPartBytes,
    maxPdfStreamBytes: options.maxPdfStreamBytes,
    maxImagePixels: options.maxImagePixels,
  };
  let inFlight = 0;
  const watchdog = memoryWatchdog(pool, options.memoryBytes, (reason) => options.onKill?.(reason));

  return {
    async extract(kind, file, extractOptions: ExtractOptions = {}): Promise<Passage[]> {
      if (inFlight >= options.workers + options.queue) throw new ExtractorBusyError('parser queue full');
      inFlight++;
      const controller = new AbortController();
      const onAbort = () => controller.abort();
      extractOptions.signal?.addEventListener('abort', onAbort, { once: true });
      let waitedTooLong = false;
      // Waiting for a worker is bounded too: a job still queued after the time limit is answered busy.
      let timer = setTimeout(() => {
        waitedTooLong = true;
        controller.abort();
      }, options.timeoutMs);
      const task: ParseTask = {
        kind,
        file,
        limits,
        ...(extractOptions.maxChars ? { maxChars: extractOptions.maxChars } : {}),
      };
      try {
        watchdog.start();
        const result: ParseResult = await pool.run(task, {
          signal: controller.signal,
          channel: {
            postMessage(message: WorkerMessage) {
              if ('started' in message) {
                clearTimeout(timer);
                timer = setTimeout(() => {
                  options.onKill?.(`parsing took longer than ${options.timeoutMs} ms`);
                  controller.abort();
                }, options.timeoutMs);
              } else if ('progress' in message) extractOptions.onProgress?.(message.progress);
            },
          },
        });
        if ('unreadable' in result) throw new UnreadableFileError(result.unreadable);
        return result.passages;
      } catch (error) {
        if (error instanceof UnreadableFileError) throw error;
        if (waitedTooLong) throw new ExtractorBusyError('no parser became free in time');
        const message = error instanceof Error ? error.message : String(error);
        if (/queue is at limit|no task queue/i.test(message)) throw new ExtractorBusyError(message);
        throw new UnreadableFileError(`parser process: ${message}`);
      } finally {
        clearTimeout(timer);
        extractOptions.signal?.removeEventListener('abort', onAbort);
        inFlight--;
        if (inFlight === 0) watchdog.stop();
      }
    },
    async close() {
      watchdog.stop();
      await pool.destroy();
    },
  };
}

/** Resident memory of a process in bytes, from /proc (Linux); null where it cannot be read. */
export function residentBytes(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ');
    return Number(fields[1]) * pageSize;
  } catch {
    return null;
  }
}

/** Polls the pool's worker processes while jobs run and kills any whose resident memory passes the cap. */
function memoryWatchdog(pool: Tinypool, capBytes: number, onKill: (reason: string) => void) {
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    for (const thread of pool.threads) {
      const pid = thread.threadId;
      const rss = residentBytes(pid);
      if (rss !== null && rss > capBytes) {
        onKill(
          `worker ${pid} used ${Math.round(rss / 1048576)} MB, above the cap of ${Math.round(capBytes / 1048576)} MB`,
        );
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    }
  };
  return {
    start() {
      timer ??= setInterval(check, memoryPollMs);
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
