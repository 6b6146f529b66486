import { createRequire } from 'node:module';
import path from 'node:path';
import { imageSize } from 'image-size';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import type { Passage } from './extracted';
import { UnreadableFileError } from './extracted';

/** Reads the text in an image (PNG, JPEG). */
export interface OcrEngine {
  recognize(image: Buffer, signal?: AbortSignal): Promise<string>;
}

export interface ImageLimits {
  /** An image (or a rendered PDF page) above this many pixels is refused before it is decoded. */
  maxImagePixels: number;
}

/** Images wider or taller than this are scaled down before OCR: more pixels only cost memory. */
const maxOcrSide = 4000;

const require = createRequire(import.meta.url);

/** The English LSTM data shipped in @tesseract.js-data/eng: nothing is downloaded at run time. */
export function localEnglishDataPath(): string {
  return path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

/** Width and height from the image's header, without decoding it; a header that cannot be read is unreadable. */
export function imageDimensions(bytes: Uint8Array): { width: number; height: number } {
  try {
    const { width, height } = imageSize(bytes);
    if (!width || !height) throw new Error('no dimensions');
    return { width, height };
  } catch (error) {
    throw new UnreadableFileError(`image header: ${String(error)}`);
  }
}

/**
 * An uploaded photo or scan: its header's size checked against the pixel cap before anything is decoded, scaled
 * down to at most 4000 px a side, then OCR'd.
 */
export async function extractImage(
  bytes: Buffer,
  limits: ImageLimits,
  ocr: OcrEngine,
  signal?: AbortSignal,
): Promise<Passage[]> {
  const { width, height } = imageDimensions(bytes);
  if (width * height > limits.maxImagePixels) {
    throw new UnreadableFileError(`image of ${width}×${height} pixels is above the cap of ${limits.maxImagePixels}`);
  }
  let image = bytes;
  if (Math.max(width, height) > maxOcrSide) {
    const { createCanvas, loadImage } = await import('@napi-rs/canvas');
    const decoded = await loadImage(bytes).catch((error: unknown) => {
      throw new UnreadableFileError(`image decode: ${String(error)}`);
    });
    const scale = maxOcrSide / Math.max(width, height);
    const canvas = createCanvas(Math.round(width * scale), Math.round(height * scale));
    canvas.getContext('2d').drawImage(decoded, 0, 0, canvas.width, canvas.height);
    image = canvas.toBuffer('image/png');
  }
  const text = (await ocr.recognize(image, signal)).trim();
  return text ? [{ text }] : [];
}

/**
 * tesseract.js with the local English data and the local WebAssembly core (tesseract.js-core, resolved from
 * node_modules by tesseract.js's Node worker). One worker per call, terminated afterwards (also on abort). A
 * damaged image makes tesseract's worker report an error outside the job's promise: the `errorHandler` turns that
 * into this call's failure instead of an uncaught exception. The server runs this only inside the isolated parser
 * processes, one file each, so a crash here costs only that file.
 */
export function createTesseractOcr(): OcrEngine {
  return {
    async recognize(image, signal) {
      let worker: Worker | undefined;
      let failWorker: (error: unknown) => void = () => {};
      const workerFailed = new Promise<never>((_, reject) => {
        failWorker = (error) => reject(new UnreadableFileError(`OCR: ${String(error)}`));
      });
      workerFailed.catch(() => {});
      const stop = () => {
        void worker?.terminate();
        failWorker('aborted');
      };
      signal?.addEventListener('abort', stop, { once: true });
      try {
        if (signal?.aborted) throw new UnreadableFileError('aborted');
        worker = await createWorker('eng', OEM.LSTM_ONLY, {
          langPath: localEnglishDataPath(),
          gzip: true,
          cacheMethod: 'none',
          errorHandler: (error: unknown) => failWorker(error),
        });
        if (signal?.aborted) throw new UnreadableFileError('aborted');
        const result = await Promise.race([worker.recognize(image), workerFailed]);
        return result.data.text;
      } finally {
        signal?.removeEventListener('abort', stop);
        await worker?.terminate().catch(() => {});
      }
    },
  };
}
