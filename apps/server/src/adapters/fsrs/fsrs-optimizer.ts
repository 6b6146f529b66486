import { createIsolatedRunner } from '../workers/isolated-runner';
import { JobFailedError, PoolBusyError } from '../workers/process-pool';
import type { FitTask } from './fsrs-fit-job';

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
  /** Training items (a card's first review of a day, at least a day after its previous one: see training-items.ts). */
  items: number;
}

export interface FsrsOptimizer {
  fit(histories: ReviewHistories, defaults: readonly number[], options?: { signal?: AbortSignal }): Promise<FitResult>;
  close?(): Promise<void>;
}

export class OptimizerTimeoutError extends Error {
  override name = 'OptimizerTimeoutError';
}

/** More fits are waiting than the queue holds (each waiting fit keeps its review log in memory). */
export class OptimizerBusyError extends Error {
  override name = 'OptimizerBusyError';
}

/** The fit's process died (a native crash, its memory cap) or was aborted: only this fit is lost. */
export class OptimizerFailedError extends Error {
  override name = 'OptimizerFailedError';
}

/**
 * The FSRS optimizer (fsrs-rs through @open-spaced-repetition/binding) in a child process per fit
 * (workers/isolated-runner.ts: started by a broker, killed at `timeoutMs` and at `memoryBytes` of resident memory),
 * so that neither the fit's time nor a native panic, which aborts whatever process it happens in, reaches the server.
 * At most `concurrency` fits run at once and `maxWaiting` wait their turn (more: OptimizerBusyError).
 */
export function createFsrsOptimizer(options: {
  timeoutMs: number;
  memoryBytes?: number;
  concurrency?: number;
  maxWaiting?: number;
  onKill?: (reason: string) => void;
}): FsrsOptimizer {
  const runner = createIsolatedRunner<FitTask, FitResult>(
    { url: import.meta.url, name: 'fsrs-fit-job', exportName: 'fit', label: 'fsrs-broker' },
    {
      workers: options.concurrency ?? 1,
      queue: options.maxWaiting ?? 16,
      timeoutMs: options.timeoutMs,
      memoryBytes: options.memoryBytes ?? 512 * 1024 * 1024,
      ...(options.onKill ? { onKill: options.onKill } : {}),
    },
  );
  return {
    async fit(histories, defaults, fitOptions = {}) {
      try {
        return await runner.run(
          { histories, defaults: [...defaults] },
          fitOptions.signal ? { signal: fitOptions.signal } : {},
        );
      } catch (error) {
        if (error instanceof PoolBusyError) throw new OptimizerBusyError(error.message);
        if (error instanceof JobFailedError && error.failure === 'timeout') {
          throw new OptimizerTimeoutError(`FSRS optimization ran past ${options.timeoutMs} ms`);
        }
        throw new OptimizerFailedError(error instanceof Error ? error.message : String(error));
      }
    },
    close: runner.close,
  };
}
