import { extractDoc } from './doc';
import { extractDocx } from './docx';
import type { ExtractProgress, FileKind, FileSource, Passage } from './extracted';
import { limitPassages, readFileSource, UnreadableFileError, withDeadline } from './extracted';
import { extractImage, type ImageLimits, type OcrEngine } from './image-ocr';
import { extractPdf } from './pdf';
import { extractPptx } from './pptx';
import { extractTxt } from './txt';

/** What the parsers may decode at most: the caps that keep a small hostile file from costing much. */
export interface ParserLimits extends ImageLimits {
  maxPdfPages: number;
  /** Pages without a text layer OCR'd per PDF; 0 also turns OCR of images off. */
  maxOcrPages: number;
  /** A DOCX or PPTX's unpacked size (zip-bomb guard). */
  maxUnzippedBytes: number;
  /** One XML part of a DOCX or PPTX, unpacked. */
  maxXmlPartBytes: number;
  /** One PDF stream, decoded. */
  maxPdfStreamBytes: number;
}

export interface ExtractOptions {
  /** Stops the work: an isolated extractor ends the worker process, the in-process one stops between pages. */
  signal?: AbortSignal;
  onProgress?: (progress: ExtractProgress) => void;
  /** Only the first `maxChars` characters of text are wanted (passages beyond are dropped, the last one cut). */
  maxChars?: number;
}

/** Turns an uploaded file of a known kind into passages of text, offline, within a time limit. */
export interface Extractor {
  extract(kind: FileKind, file: FileSource, options?: ExtractOptions): Promise<Passage[]>;
}

/** Runs the right parser for `kind` in this process, with the caps of `limits`. */
export async function parseFile(
  kind: FileKind,
  bytes: Buffer,
  limits: ParserLimits,
  ocr: OcrEngine,
  options: ExtractOptions = {},
): Promise<Passage[]> {
  const { signal, onProgress } = options;
  switch (kind) {
    case 'txt':
      return extractTxt(bytes);
    case 'docx':
      return extractDocx(bytes, limits.maxUnzippedBytes, limits.maxXmlPartBytes);
    case 'doc':
      return extractDoc(bytes);
    case 'pptx':
      return extractPptx(bytes, limits.maxUnzippedBytes, limits.maxXmlPartBytes, onProgress);
    case 'pdf':
      return extractPdf(bytes, {
        maxPages: limits.maxPdfPages,
        maxOcrPages: limits.maxOcrPages,
        maxStreamBytes: limits.maxPdfStreamBytes,
        maxImagePixels: limits.maxImagePixels,
        ocr,
        ...(signal ? { signal } : {}),
        ...(onProgress ? { onProgress } : {}),
      });
    case 'jpg':
    case 'png':
      if (limits.maxOcrPages === 0) return [];
      return extractImage(bytes, limits, ocr, signal);
  }
}

/**
 * Parses in this process under a deadline. Used inside the isolated parser workers (where the pool, not this
 * deadline, is the hard bound) and by unit tests of the parsers; the server itself uses the isolated extractor.
 */
export function createInProcessExtractor(limits: ParserLimits & { timeoutMs: number }, ocr: OcrEngine): Extractor {
  return {
    async extract(kind, file, options = {}) {
      const bytes = await readFileSource(file);
      try {
        const passages = await withDeadline(
          limits.timeoutMs,
          (signal) => parseFile(kind, bytes, limits, ocr, { ...options, signal }),
          options.signal,
        );
        return options.maxChars === undefined ? passages : limitPassages(passages, options.maxChars);
      } catch (error) {
        throw error instanceof UnreadableFileError ? error : new UnreadableFileError(String(error));
      }
    },
  };
}
