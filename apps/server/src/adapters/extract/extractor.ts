import { extractDoc } from './doc';
import { readDocx } from './docx';
import type { ExtractProgress, FileKind, FileSource, Passage } from './extracted';
import { limitPassages, readFileSource, UnreadableFileError, withDeadline } from './extracted';
import { createFigureCollector, type Figure, type FigureLimits } from './figures';
import { extractImage, type ImageLimits, type OcrEngine } from './image-ocr';
import { extractPdf } from './pdf';
import { readPptx } from './pptx';
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
  /** Given, the figures of a PDF, PPTX or DOCX are read too, within these caps, and handed to `onFigures`. */
  figures?: FigureLimits;
  onFigures?: (figures: Figure[]) => void;
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
  return (await parseDocument(kind, bytes, limits, ocr, options)).passages;
}

/** parseFile, with the figures of a PDF, PPTX or DOCX when `options.figures` is given (none otherwise). */
export async function parseDocument(
  kind: FileKind,
  bytes: Buffer,
  limits: ParserLimits,
  ocr: OcrEngine,
  options: ExtractOptions = {},
): Promise<{ passages: Passage[]; figures: Figure[] }> {
  const { signal, onProgress } = options;
  const collector = options.figures ? createFigureCollector(options.figures) : undefined;
  switch (kind) {
    case 'txt':
      return { passages: await extractTxt(bytes), figures: [] };
    case 'docx': {
      const read = await readDocx(bytes, limits.maxUnzippedBytes, limits.maxXmlPartBytes, collector !== undefined);
      await collector?.addAll(read.candidates, 1);
      return { passages: read.passages, figures: collector?.finish(1) ?? [] };
    }
    case 'doc':
      return { passages: await extractDoc(bytes), figures: [] };
    case 'pptx': {
      const read = await readPptx(
        bytes,
        limits.maxUnzippedBytes,
        limits.maxXmlPartBytes,
        onProgress,
        collector !== undefined,
      );
      await collector?.addAll(read.candidates, read.slides);
      return { passages: read.passages, figures: collector?.finish(read.slides) ?? [] };
    }
    case 'pdf': {
      const passages = await extractPdf(bytes, {
        maxPages: limits.maxPdfPages,
        maxOcrPages: limits.maxOcrPages,
        maxStreamBytes: limits.maxPdfStreamBytes,
        maxImagePixels: limits.maxImagePixels,
        ocr,
        ...(collector ? { figures: collector } : {}),
        ...(signal ? { signal } : {}),
        ...(onProgress ? { onProgress } : {}),
      });
      const pages = passages.reduce((most, passage) => Math.max(most, passage.page ?? 0), 0);
      return { passages, figures: collector?.finish(pages) ?? [] };
    }
    case 'jpg':
    case 'png':
      if (limits.maxOcrPages === 0) return { passages: [], figures: [] };
      return { passages: await extractImage(bytes, limits, ocr, signal), figures: [] };
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
        const { passages, figures } = await withDeadline(
          limits.timeoutMs,
          (signal) => parseDocument(kind, bytes, limits, ocr, { ...options, signal }),
          options.signal,
        );
        if (options.figures) options.onFigures?.(figures);
        return options.maxChars === undefined ? passages : limitPassages(passages, options.maxChars);
      } catch (error) {
        throw error instanceof UnreadableFileError ? error : new UnreadableFileError(String(error));
      }
    },
  };
}
