import { extractDoc } from './doc';
import { extractDocx } from './docx';
import type { FileKind, Passage } from './extracted';
import { UnreadableFileError, withDeadline } from './extracted';
import type { OcrEngine } from './image-ocr';
import { extractPdf } from './pdf';
import { extractPptx } from './pptx';
import { extractTxt } from './txt';

export interface ExtractorOptions {
  ocr: OcrEngine;
  timeoutMs: number;
  maxPdfPages: number;
  maxOcrPages: number;
  maxUnzippedBytes: number;
}

/** How far a file has been read: pages of a PDF, slides of a PPTX (`total` 1 for a single-part file). */
export interface ExtractProgress {
  done: number;
  total: number;
}

export interface ExtractOptions {
  /** Stops the work. */
  signal?: AbortSignal;
  onProgress?: (progress: ExtractProgress) => void;
}

/** Turns an uploaded file of a known kind into passages of text, offline, within a time limit. */
export interface Extractor {
  extract(kind: FileKind, bytes: Buffer, options?: ExtractOptions): Promise<Passage[]>;
}

export function createExtractor(options: ExtractorOptions): Extractor {
  return {
    async extract(kind, bytes, extractOptions = {}) {
      const controller = new AbortController();
      const stop = () => controller.abort();
      extractOptions.signal?.addEventListener('abort', stop, { once: true });
      const work = (async (): Promise<Passage[]> => {
        switch (kind) {
          case 'txt':
            return extractTxt(bytes);
          case 'docx':
            return extractDocx(bytes, options.maxUnzippedBytes);
          case 'doc':
            return extractDoc(bytes);
          case 'pptx':
            return extractPptx(bytes, options.maxUnzippedBytes);
          case 'pdf':
            return extractPdf(bytes, {
              maxPages: options.maxPdfPages,
              maxOcrPages: options.maxOcrPages,
              ocr: options.ocr,
              signal: controller.signal,
            });
          case 'jpg':
          case 'png': {
            if (options.maxOcrPages === 0) return [];
            const text = (await options.ocr.recognize(bytes, controller.signal)).trim();
            return text ? [{ text }] : [];
          }
        }
      })();
      try {
        return await withDeadline(options.timeoutMs, work, () => controller.abort());
      } catch (error) {
        throw error instanceof UnreadableFileError ? error : new UnreadableFileError(String(error));
      } finally {
        extractOptions.signal?.removeEventListener('abort', stop);
      }
    },
  };
}
