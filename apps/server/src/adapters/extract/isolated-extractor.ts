import { createIsolatedRunner } from '../workers/isolated-runner';
import { PoolBusyError } from '../workers/process-pool';
import type { ExtractProgress, FileKind, FileSource, Passage } from './extracted';
import { UnreadableFileError } from './extracted';
import type { ExtractOptions, Extractor } from './extractor';
import type { ImageProbeLimits, ProbedImage } from './image-probe';
import type { ImageTask, ParseResult, ParseTask } from './parse-worker';
import { ExtractorBusyError, type ParserPoolOptions } from './parser-pool';

/** Decodes and measures an uploaded image (POST /media) away from the server's process. */
export interface ImageProber {
  probeImage(file: FileSource, limits: ImageProbeLimits): Promise<ProbedImage>;
}

export interface IsolatedExtractor extends Extractor, ImageProber {
  /** True when a file submitted now would be queued or run rather than refused as busy. */
  hasCapacity(): boolean;
  /** Starts the broker process now rather than with the first file (a server calls it when it starts listening). */
  warm(): void;
  close(): Promise<void>;
}

/**
 * What the server uses to read uploaded files: every file is parsed in a process of its own, started by a broker
 * process (workers/isolated-runner.ts, the containment imports and FSRS fitting use too), with the parser caps of
 * `options` passed to each job. A killed or crashed parser makes the file unreadable; a full queue, busy.
 */
export function createIsolatedExtractor(options: ParserPoolOptions): IsolatedExtractor {
  const { workers, queue, timeoutMs, memoryBytes, onKill, ...limits } = options;
  const runner = createIsolatedRunner<ParseTask | ImageTask, ParseResult, { progress: ExtractProgress }>(
    { url: import.meta.url, name: 'parse-worker', exportName: 'parse', label: 'parser-broker' },
    { workers, queue, timeoutMs, memoryBytes, ...(onKill ? { onKill } : {}) },
  );
  return {
    hasCapacity: runner.hasCapacity,
    warm: runner.warm,
    close: runner.close,
    async extract(kind: FileKind, file: FileSource, extractOptions: ExtractOptions = {}): Promise<Passage[]> {
      const task: ParseTask = {
        kind,
        file,
        limits,
        ...(extractOptions.maxChars ? { maxChars: extractOptions.maxChars } : {}),
        ...(extractOptions.figures ? { figures: extractOptions.figures } : {}),
      };
      let result: ParseResult;
      try {
        result = await runner.run(task, {
          ...(extractOptions.signal ? { signal: extractOptions.signal } : {}),
          onMessage: (message) => extractOptions.onProgress?.(message.progress),
        });
      } catch (error) {
        if (error instanceof PoolBusyError) throw new ExtractorBusyError(error.message);
        throw new UnreadableFileError(`parser process: ${error instanceof Error ? error.message : String(error)}`);
      }
      if ('unreadable' in result) throw new UnreadableFileError(result.unreadable);
      if (!('passages' in result)) throw new UnreadableFileError('parser process answered without passages');
      if (extractOptions.figures) extractOptions.onFigures?.(result.figures ?? []);
      return result.passages;
    },
    async probeImage(file, imageLimits) {
      let result: ParseResult;
      try {
        result = await runner.run({ image: file, limits: imageLimits });
      } catch (error) {
        if (error instanceof PoolBusyError) throw new ExtractorBusyError(error.message);
        throw new UnreadableFileError(`parser process: ${error instanceof Error ? error.message : String(error)}`);
      }
      if ('unreadable' in result) throw new UnreadableFileError(result.unreadable);
      if (!('image' in result)) throw new UnreadableFileError('parser process answered without an image');
      return result.image;
    },
  };
}
