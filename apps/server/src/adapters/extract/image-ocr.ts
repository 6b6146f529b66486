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
 * a stuck recognition never outlives its request.
 */
export function createTesseractOcr(): OcrEngine {
  return {
    async recognize(image, signal) {
      let worker: Worker | undefined;
      const stop = () => void worker?.terminate();
      signal?.addEventListener('abort', stop, { once: true });
      try {
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
      }
    },
  };
}
