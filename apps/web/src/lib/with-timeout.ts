import { timeouts } from '@flashcards/shared/limits';

export class ChunkLoadError extends Error {
  constructor(cause?: unknown) {
    super('A script chunk failed to load', { cause });
    this.name = 'ChunkLoadError';
  }
}

/**
 * Loads a lazy chunk, failing after 120 s instead of hanging forever on a stalled
 * connection; any failure becomes a ChunkLoadError, which the route error screen explains.
 */
export function loadChunk<T>(load: () => Promise<T>, timeoutMs: number = timeouts.chunkLoadMs): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError()), timeoutMs);
    load().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(new ChunkLoadError(error));
      },
    );
  });
}
