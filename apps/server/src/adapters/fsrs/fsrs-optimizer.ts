import { Worker } from 'node:worker_threads';

/** One learner's review log for a fit: per card, its binary ratings (1 Again, 3 Good) and study-day numbers. */
export interface ReviewHistories {
  ratings: Uint8Array;
  days: Int32Array;
  /** Reviews of card i are at [cardStarts[i], cardStarts[i + 1]); one more entry than there are cards. */
  cardStarts: Int32Array;
}

export interface FitResult {
  /** The fitted parameters, or null when the log had too little long-term history to fit. */
  parameters: number[] | null;
  /** Log loss of the default and the fitted parameters on the learner's own reviews (null when not computable). */
  logLossDefault: number | null;
  logLossPersonal: number | null;
  /** Reviews that the fit could learn from (a later review of a card, at least a day after the one before). */
  items: number;
}

export interface FsrsOptimizer {
  fit(histories: ReviewHistories, defaults: readonly number[]): Promise<FitResult>;
}

export class OptimizerTimeoutError extends Error {
  override name = 'OptimizerTimeoutError';
}

/** More fits are waiting than the queue holds (each waiting fit keeps its review log in memory). */
export class OptimizerBusyError extends Error {
  override name = 'OptimizerBusyError';
}

const workerUrl = new URL('./fsrs-optimizer.worker.mjs', import.meta.url);

/**
 * The FSRS optimizer (fsrs-rs through @open-spaced-repetition/binding) in a worker thread per fit, so the request's
 * event loop stays free; at most `concurrency` fits run at once and `maxWaiting` wait their turn (more: refused with
 * OptimizerBusyError), each stopped after `timeoutMs`.
 */
export function createFsrsOptimizer(options: {
  timeoutMs: number;
  concurrency?: number;
  maxWaiting?: number;
}): FsrsOptimizer {
  const concurrency = options.concurrency ?? 1;
  const maxWaiting = options.maxWaiting ?? 16;
  let running = 0;
  const waiting: (() => void)[] = [];

  const runInWorker = (histories: ReviewHistories, defaults: readonly number[]) =>
    new Promise<FitResult>((resolve, reject) => {
      const worker = new Worker(workerUrl);
      const timer = setTimeout(() => {
        void worker.terminate();
        reject(new OptimizerTimeoutError(`FSRS optimization ran past ${options.timeoutMs} ms`));
      }, options.timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        void worker.terminate();
      };
      worker.once('message', (message: ({ ok: true } & FitResult) | { ok: false; error: string }) => {
        finish();
        if (message.ok) {
          resolve({
            parameters: message.parameters,
            logLossDefault: message.logLossDefault,
            logLossPersonal: message.logLossPersonal,
            items: message.items,
          });
        } else {
          reject(new Error(`FSRS optimizer failed: ${message.error}`));
        }
      });
      worker.once('error', (error) => {
        finish();
        reject(error);
      });
      worker.postMessage({ ...histories, defaults: [...defaults] }, [
        histories.ratings.buffer as ArrayBuffer,
        histories.days.buffer as ArrayBuffer,
        histories.cardStarts.buffer as ArrayBuffer,
      ]);
    });

  return {
    async fit(histories, defaults) {
      if (running >= concurrency) {
        if (waiting.length >= maxWaiting) throw new OptimizerBusyError('too many fits waiting');
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
      running++;
      try {
        return await runInWorker(histories, defaults);
      } finally {
        running--;
        waiting.shift()?.();
      }
    },
  };
}
