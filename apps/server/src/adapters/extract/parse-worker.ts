/**
 * The entry of an isolated parser process (see workers/process-pool.ts): one file, parsed with the caps it is given and its
 * text cleaned (clean-text.ts), its progress sent to the parent as it goes. Anything that goes wrong here, however badly, ends this process only.
 */

import { announceJobStart } from '../workers/process-pool';
import { yieldCpuToServer } from '../workers/worker-entry';
import { cleanPassages } from './clean-text';
import type { ExtractProgress } from './extracted';
import {
  type FileKind,
  type FileSource,
  limitPassages,
  type Passage,
  readFileSource,
  UnreadableFileError,
} from './extracted';
import type { ParserLimits } from './extractor';
import { parseDocument } from './extractor';
import type { Figure, FigureLimits } from './figures';
import { createTesseractOcr } from './image-ocr';
import { type ImageProbeLimits, type ProbedImage, probeImage } from './image-probe';

yieldCpuToServer();

export interface ParseTask {
  kind: FileKind;
  file: FileSource;
  limits: ParserLimits;
  /** See ExtractOptions.maxChars: a large document's text is cut here, before it crosses to other processes. */
  maxChars?: number;
  /** Given, the document's figures are read too, within these caps. */
  figures?: FigureLimits;
}

/** An uploaded image (POST /media) to decode and measure: images are decoded in these processes only. */
export interface ImageTask {
  image: FileSource;
  limits: ImageProbeLimits;
}

/**
 * What a parse answers: passages (or the measured image), or the reason the file is unreadable (errors do not cross
 * processes whole).
 */
export type ParseResult = { passages: Passage[]; figures?: Figure[] } | { image: ProbedImage } | { unreadable: string };

/** Sent to the parent as it goes (after announceJobStart, which starts the job's deadline). */
export type WorkerMessage = { progress: ExtractProgress };

export async function parse(task: ParseTask | ImageTask): Promise<ParseResult> {
  const send = (message: WorkerMessage) => process.send?.(message);
  const onProgress = (progress: ExtractProgress) => send({ progress });
  announceJobStart();
  try {
    if ('image' in task) return { image: await probeImage(await readFileSource(task.image), task.limits) };
    const bytes = await readFileSource(task.file);
    // Cleaned here too (hyphenation, running headers, boilerplate): long regex work on untrusted text.
    const { passages, figures } = await parseDocument(task.kind, bytes, task.limits, createTesseractOcr(), {
      onProgress,
      ...(task.figures ? { figures: task.figures } : {}),
    });
    const cleaned = cleanPassages(passages);
    return {
      passages: task.maxChars === undefined ? cleaned : limitPassages(cleaned, task.maxChars),
      ...(task.figures ? { figures } : {}),
    };
  } catch (error) {
    return { unreadable: error instanceof UnreadableFileError ? error.message : String(error) };
  }
}
