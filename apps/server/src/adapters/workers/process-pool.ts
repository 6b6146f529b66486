import { readFileSync } from 'node:fs';
import { Tinypool } from 'tinypool';

export interface ProcessPoolOptions {
  /** Jobs run at the same time, each in its own process. */
  workers: number;
  /** Jobs waiting for a process at most; beyond that `PoolBusyError`. */
  queue: number;
  /** Time for one job, waiting excluded; past it the process is killed. */
  timeoutMs: number;
  /** Resident memory of one process; past it the process is killed. */
  memoryBytes: number;
  /** Called when a process is killed for its time or memory (for the log). */
  onKill?: (reason: string) => void;
}

/** The module a pool's processes run: its file, the Node flags it needs, and the named export called per job. */
export interface PoolEntry {
  file: string;
  execArgv: string[];
  exportName: string;
}

/** Why a job ended without an answer: its process was killed for time or memory, or died by itself. */
export type JobFailure = 'timeout' | 'memory' | 'crashed';

/** The queue of jobs waiting for a process is full: the caller should come back later. */
export class PoolBusyError extends Error {
  override name = 'PoolBusyError';
}

/** The job's process was killed (time, memory) or died (a native crash, an abort): only this job is lost. */
export class JobFailedError extends Error {
  override name = 'JobFailedError';
  constructor(
    readonly failure: JobFailure,
    message: string,
  ) {
    super(message);
  }
}

/** Sent by a job's process as it begins: its deadline starts then, and its pid is what the memory cap watches. */
export interface JobStarted {
  started: true;
  pid: number;
}

export interface RunOptions<Message> {
  signal?: AbortSignal;
  /** Every message the job's process sends besides `started` (progress, partial results). */
  onMessage?: (message: Message) => void;
}

export interface ProcessPool<Task, Result, Message> {
  run(task: Task, options?: RunOptions<Message>): Promise<Result>;
  close(): Promise<void>;
}

const memoryPollMs = 25;
const pageSize = 4096;

/** Call at the start of a job in a pool's process (see JobStarted). */
export function announceJobStart(): void {
  const started: JobStarted = { started: true, pid: process.pid };
  process.send?.(started);
}

/**
 * Runs untrusted work (parsing uploads and Anki packages, fitting FSRS) in child processes from a tinypool pool,
 * one fresh process per job (isolateWorkers), so a job that crashes, loops in native code or allocates without end
 * takes down only its own process, and no state from one user's job can reach the next. Child processes rather than
 * worker threads: a thread's resourceLimits cap only V8's heap, while native buffers (SQLite, canvas, WebAssembly)
 * live outside it, a thread stuck in native code cannot be terminated, and a native abort ends the whole process.
 * Each job is bounded three ways: a deadline (the process is killed, so a synchronous loop ends too), a
 * resident-memory cap polled from /proc every 25 ms (the process is killed), and V8's heap limit inside the process.
 * The pool lives in a broker process (process-broker.ts), never in the server, which would stall as it forks.
 */
export function createProcessPool<Task, Result, Message = never>(
  entry: PoolEntry,
  options: ProcessPoolOptions,
): ProcessPool<Task, Result, Message> {
  const heapMb = Math.max(64, Math.floor(options.memoryBytes / 1024 / 1024));
  const pool = new Tinypool({
    runtime: 'child_process',
    filename: entry.file,
    name: entry.exportName,
    isolateWorkers: true,
    minThreads: 0,
    maxThreads: options.workers,
    maxQueue: options.queue,
    serialization: 'advanced',
    execArgv: [...entry.execArgv, `--max-old-space-size=${heapMb}`],
  });
  let inFlight = 0;
  const mb = (bytes: number) => Math.round(bytes / 1048576);

  return {
    async run(task, runOptions = {}): Promise<Result> {
      if (inFlight >= options.workers + options.queue) throw new PoolBusyError('queue full');
      inFlight++;
      // Ends the job: the caller's signal, a deadline, or the memory cap (which also kills the process).
      const cancel = new AbortController();
      const signal = runOptions.signal ? AbortSignal.any([runOptions.signal, cancel.signal]) : cancel.signal;
      let failure: JobFailure | null = null;
      let waitedTooLong = false;
      let memoryTimer: NodeJS.Timeout | undefined;
      // A job beyond the running ones waits in the queue; one that a process was free for is only starting.
      const queued = inFlight > options.workers;
      // Waiting is bounded too: a job still queued after the time limit is answered busy, one still starting timed out.
      const waitDeadline = AbortSignal.timeout(options.timeoutMs);
      const onWaitExpired = () => {
        if (queued) waitedTooLong = true;
        else failure ??= 'timeout';
        cancel.abort();
      };
      waitDeadline.addEventListener('abort', onWaitExpired, { once: true });
      // The job's own deadline starts once its process announces itself (JobStarted).
      let runDeadline: AbortSignal | undefined;
      let onRunExpired: (() => void) | undefined;
      const kill = (reason: JobFailure, pid: number, why: string) => {
        failure ??= reason;
        options.onKill?.(why);
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
        cancel.abort();
      };
      try {
        return (await pool.run(task, {
          signal,
          channel: {
            postMessage(message: JobStarted | Message) {
              if (message && typeof message === 'object' && 'started' in message && 'pid' in message) {
                const { pid } = message as JobStarted;
                waitDeadline.removeEventListener('abort', onWaitExpired);
                onRunExpired = () => kill('timeout', pid, `job took longer than ${options.timeoutMs} ms`);
                runDeadline = AbortSignal.timeout(options.timeoutMs);
                runDeadline.addEventListener('abort', onRunExpired, { once: true });
                memoryTimer = setInterval(() => {
                  const rss = residentBytes(pid);
                  if (rss !== null && rss > options.memoryBytes) {
                    kill(
                      'memory',
                      pid,
                      `process ${pid} used ${mb(rss)} MB, above the cap of ${mb(options.memoryBytes)} MB`,
                    );
                  }
                }, memoryPollMs);
              } else runOptions.onMessage?.(message as Message);
            },
          },
        })) as Result;
      } catch (error) {
        if (waitedTooLong) throw new PoolBusyError('no process became free in time');
        const message = error instanceof Error ? error.message : String(error);
        if (/queue is at limit|no task queue/i.test(message)) throw new PoolBusyError(message);
        throw new JobFailedError(failure ?? 'crashed', message);
      } finally {
        waitDeadline.removeEventListener('abort', onWaitExpired);
        if (onRunExpired) runDeadline?.removeEventListener('abort', onRunExpired);
        clearInterval(memoryTimer);
        inFlight--;
      }
    },
    async close() {
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
