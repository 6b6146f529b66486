import { UnreadableFileError } from '../extract/extracted';
import { ExtractorBusyError } from '../extract/parser-pool';
import { createIsolatedRunner } from '../workers/isolated-runner';
import { PoolBusyError, type ProcessPoolOptions } from '../workers/process-pool';
import type { LabelBox } from './label-boxes';
import type { LabelResult, LabelTask } from './label-worker';

/** Finds the text labels of an image: its size in pixels and one box per label. */
export interface LabelFinder {
  find(bytes: Uint8Array, signal?: AbortSignal): Promise<{ width: number; height: number; boxes: LabelBox[] }>;
  close(): Promise<void>;
}

/**
 * Labels found in isolated parser processes (label-worker.ts), started by a broker of their own on the first image:
 * a killed or crashed process makes the image unreadable (UnreadableFileError); a full queue, busy
 * (ExtractorBusyError), as the document parsers answer.
 */
export function createIsolatedLabelFinder(options: ProcessPoolOptions & { maxImagePixels: number }): LabelFinder {
  const { maxImagePixels, ...pool } = options;
  const runner = createIsolatedRunner<LabelTask, LabelResult>(
    { url: import.meta.url, name: 'label-worker', exportName: 'findLabels', label: 'label-broker' },
    pool,
  );
  return {
    close: runner.close,
    async find(bytes, signal) {
      let result: LabelResult;
      try {
        result = await runner.run({ bytes, maxImagePixels }, signal ? { signal } : {});
      } catch (error) {
        if (error instanceof PoolBusyError) throw new ExtractorBusyError(error.message);
        throw new UnreadableFileError(`label process: ${error instanceof Error ? error.message : String(error)}`);
      }
      if ('unreadable' in result) throw new UnreadableFileError(result.unreadable);
      return result;
    },
  };
}
