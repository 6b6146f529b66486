import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker, OEM, type Worker } from 'tesseract.js';

/** Reads the text in an image (PNG, JPEG). */
export interface OcrEngine {
  recognize(image: Buffer, signal?: AbortSignal): Promise<string>;
}

const require = createRequire(import.meta.url);

/** The English LSTM data shipped in @tesseract.js-data/eng: nothing is downloaded at run time. */
export function localEnglishDataPath(): string {
  return path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

/**
 * tesseract.js with the local English data and the local WebAssembly core (tesseract.js-core, resolved from
 * node_modules by tesseract.js's Node worker). One worker per call, terminated afterwards (also on abort), so
 * a stuck recognition never outlives its request; at most `maxConcurrent` run at once in this process (each
 * worker holds tens of MB), the others wait their turn.
 */
export function createTesseractOcr(maxConcurrent = 2): OcrEngine {
  let running = 0;
  const waiting: (() => void)[] = [];
  const acquire = async () => {
    if (running >= maxConcurrent) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
  };
  const release = () => {
    running--;
    waiting.shift()?.();
  };

  return {
    async recognize(image, signal) {
      await acquire();
      let released = false;
      const releaseOnce = () => {
        if (!released) {
          released = true;
          release();
        }
      };
      let worker: Worker | undefined;
      // On abort the slot is freed at once, even if a terminated worker never settles its job.
      const stop = () => {
        void worker?.terminate();
        releaseOnce();
      };
      signal?.addEventListener('abort', stop, { once: true });
      try {
        if (signal?.aborted) throw new Error('aborted');
        worker = await createWorker('eng', OEM.LSTM_ONLY, {
          langPath: localEnglishDataPath(),
          gzip: true,
          cacheMethod: 'none',
        });
        if (signal?.aborted) throw new Error('aborted');
        const result = await worker.recognize(image);
        return result.data.text;
      } finally {
        signal?.removeEventListener('abort', stop);
        await worker?.terminate().catch(() => {});
        releaseOnce();
      }
    },
  };
}
