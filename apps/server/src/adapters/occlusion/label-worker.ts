/**
 * The entry of an isolated parser process that finds the text labels of an image (POST /occlusion/suggest): the
 * image is decoded and read only here, so a hostile image ends this process only (workers/process-pool.ts).
 */

import { createWorker, OEM, PSM } from 'tesseract.js';
import { UnreadableFileError } from '../extract/extracted';
import { imageDimensions, localEnglishDataPath } from '../extract/image-ocr';
import { announceJobStart } from '../workers/process-pool';
import { yieldCpuToServer } from '../workers/worker-entry';
import { type LabelBox, labelBoxes, type WordBox } from './label-boxes';

yieldCpuToServer();

export interface LabelTask {
  bytes: Uint8Array;
  /** An image above this many pixels is refused before it is decoded. */
  maxImagePixels: number;
}

export type LabelResult = { width: number; height: number; boxes: LabelBox[] } | { unreadable: string };

/** Images wider or taller than this are read scaled down: boxes are fractions, so they do not change. */
const maxOcrSide = 3000;

interface TesseractWord {
  text: string;
  confidence: number;
  bbox: { x0: number; y0: number; x1: number; y1: number };
}
interface TesseractBlock {
  paragraphs: { lines: { words: TesseractWord[] }[] }[];
}

const pngEnd = Buffer.from([0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

/**
 * A PNG without its end chunk or a JPEG without its end marker was cut short: the decoder would show the missing
 * part blank, so it is refused as unreadable rather than read as an image without labels.
 */
function assertComplete(bytes: Buffer): void {
  const isPng = bytes.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  const isJpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
  const tail = bytes.subarray(Math.max(0, bytes.length - 64));
  if (isPng && tail.indexOf(pngEnd) < 0) throw new UnreadableFileError('PNG cut short: no IEND chunk');
  if (isJpeg && tail.indexOf(Buffer.from([0xff, 0xd9])) < 0) throw new UnreadableFileError('JPEG cut short: no EOI');
}

/** The image as PNG bytes of at most maxOcrSide a side (decoded here, in the isolated process). */
async function readableImage(bytes: Buffer, width: number, height: number): Promise<{ png: Buffer; scale: number }> {
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  const decoded = await loadImage(bytes).catch((error: unknown) => {
    throw new UnreadableFileError(`image decode: ${String(error)}`);
  });
  const scale = Math.min(1, maxOcrSide / Math.max(width, height));
  const canvas = createCanvas(Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale)));
  const context = canvas.getContext('2d');
  // Transparent areas read as white, as a viewer shows them.
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(decoded, 0, 0, canvas.width, canvas.height);
  return { png: canvas.toBuffer('image/png'), scale };
}

export async function findLabels(task: LabelTask): Promise<LabelResult> {
  announceJobStart();
  try {
    const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
    const { width, height } = imageDimensions(bytes);
    if (width * height > task.maxImagePixels) {
      throw new UnreadableFileError(`image of ${width}×${height} pixels is above the cap of ${task.maxImagePixels}`);
    }
    assertComplete(bytes);
    const { png, scale } = await readableImage(bytes, width, height);
    const worker = await createWorker('eng', OEM.LSTM_ONLY, {
      langPath: localEnglishDataPath(),
      gzip: true,
      cacheMethod: 'none',
    });
    try {
      // Sparse text: a diagram's labels are scattered words, not a page of paragraphs.
      await worker.setParameters({ tessedit_pageseg_mode: PSM.SPARSE_TEXT });
      const result = await worker.recognize(png, {}, { blocks: true });
      const blocks = (result.data.blocks ?? []) as unknown as TesseractBlock[];
      const words: WordBox[] = blocks.flatMap((block) =>
        block.paragraphs.flatMap((paragraph) =>
          paragraph.lines.flatMap((line) =>
            line.words.map((word) => ({ text: word.text, confidence: word.confidence, ...word.bbox })),
          ),
        ),
      );
      return {
        width,
        height,
        boxes: labelBoxes(words, Math.round(width * scale), Math.round(height * scale)),
      };
    } finally {
      await worker.terminate().catch(() => {});
    }
  } catch (error) {
    return { unreadable: error instanceof UnreadableFileError ? error.message : String(error) };
  }
}
