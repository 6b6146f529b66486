import { Worker } from 'node:worker_threads';

const workerUrl = new URL('./wal-checkpoint.worker.mjs', import.meta.url);

export interface WalCheckpointer {
  /** Stops the thread after closing its connection; safe to call more than once. */
  stop(): Promise<void>;
}

/**
 * Runs SQLite's WAL checkpoints for `file` on a worker thread with its own connection (wal-checkpoint.worker.mjs).
 * A checkpoint copies the log's pages into the database and syncs both files: on the server's connection, SQLite
 * runs one inside whichever commit passes the threshold, and that request, with every other one, waited for it
 * (several milliseconds of disk work about every hundred reviews). The server's connection keeps a far higher
 * threshold, so it still checkpoints if this thread falls behind or dies.
 */
export function startWalCheckpointer(file: string, intervalMs = 50): WalCheckpointer {
  const worker = new Worker(workerUrl, { workerData: { file, intervalMs } });
  // Never what keeps the process alive; an error ends only the thread (the server's own checkpoints remain).
  worker.unref();
  worker.on('error', () => {});
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  let stopped: Promise<void> | undefined;
  return {
    stop: () => {
      stopped ??= (async () => {
        worker.postMessage('stop');
        const timer = setTimeout(() => void worker.terminate(), 2_000);
        await exited;
        clearTimeout(timer);
      })();
      return stopped;
    },
  };
}
