import { createIsolatedRunner } from '../workers/isolated-runner';
import { JobFailedError, PoolBusyError } from '../workers/process-pool';
import type { FitResult, FitTask, ReviewHistories } from './fit-task';

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
