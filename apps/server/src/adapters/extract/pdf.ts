import { constants, inflateSync } from 'node:zlib';
import type { ExtractProgress, Passage } from './extracted';
import { tidyText, UnreadableFileError } from './extracted';
import type { OcrEngine } from './image-ocr';
import { decodeCorkControls } from './ligatures';
import { joinPageText, type PlacedText } from './pdf-layout';

export interface PdfOptions {
  maxPages: number;
  /** Pages without a text layer are rendered and OCR'd, up to this many per file. */
  maxOcrPages: number;
  /** A stream that inflates to more than this makes the file unreadable (a deflate bomb). */
  maxStreamBytes: number;
  /** Images in the PDF above this many pixels are not decoded. */
  maxImagePixels: number;
  ocr: OcrEngine;
  signal?: AbortSignal;
  onProgress?: (progress: ExtractProgress) => void;
}

// A page whose text layer has fewer letters than this is treated as scanned.
const minLettersForTextLayer = 8;

const streamKeyword = Buffer.from('stream');
const endStreamKeyword = Buffer.from('endstream');

/**
 * Inflates every stream of the file once, in one linear pass, with the output capped: a small stream that would
 * inflate to hundreds of megabytes is refused here, before pdf.js decodes it whole. Streams that are not deflated
 * (images in DCT, for example) fail to inflate at once and are left to pdf.js.
 */
export function checkPdfStreams(bytes: Uint8Array, maxStreamBytes: number): void {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  for (;;) {
    const start = data.indexOf(streamKeyword, at);
    if (start < 0) return;
    // "stream" followed by an end of line starts the data; "endstream" is the same keyword's tail.
    let dataStart = start + streamKeyword.length;
    if (data[dataStart] === 0x0d) dataStart++;
    if (data[dataStart] !== 0x0a || (start >= 3 && data.subarray(start - 3, start).toString() === 'end')) {
      at = start + streamKeyword.length;
      continue;
    }
    dataStart++;
    const end = data.indexOf(endStreamKeyword, dataStart);
    const body = data.subarray(dataStart, end < 0 ? data.length : end);
    try {
      inflateSync(body, { maxOutputLength: maxStreamBytes, finishFlush: constants.Z_SYNC_FLUSH });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
        throw new UnreadableFileError(`a PDF stream inflates to more than ${maxStreamBytes} bytes`);
      }
    }
    if (end < 0) return;
    at = end + endStreamKeyword.length;
  }
}

/**
 * PDF through pdf.js (eval disabled, no font or worker fetches): each page's text layer, pages in order, at most
 * `maxPages`; a page with no text layer is rendered with @napi-rs/canvas and OCR'd, at most `maxOcrPages`, unless
 * the rendered page is blank.
 */
export async function extractPdf(bytes: Uint8Array, options: PdfOptions): Promise<Passage[]> {
  checkPdfStreams(bytes, options.maxStreamBytes);
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    stopAtErrors: false,
    maxImageSize: options.maxImagePixels,
    verbosity: 0,
  });
  const onAbort = () => void task.destroy();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const doc = await task.promise.catch((error: unknown) => {
      throw new UnreadableFileError(String(error));
    });
    const passages: Passage[] = [];
    let ocrPages = 0;
    const pages = Math.min(doc.numPages, options.maxPages);
    for (let number = 1; number <= pages; number++) {
      if (options.signal?.aborted) throw new UnreadableFileError('aborted');
      const page = await doc.getPage(number);
      const content = await page.getTextContent();
      const placed: PlacedText[] = [];
      for (const item of content.items) {
        if (!('str' in item)) continue;
        const [, , c = 0, d = 0, x = 0, y = 0] = item.transform as number[];
        placed.push({
          str: decodeCorkControls(item.str),
          x,
          y,
          width: item.width,
          size: item.height || Math.hypot(c, d),
          font: item.fontName,
        });
      }
      let text = tidyText(joinPageText(placed));
      if ((text.match(/\p{L}/gu)?.length ?? 0) < minLettersForTextLayer && ocrPages < options.maxOcrPages) {
        ocrPages++;
        const image = await renderPage(page);
        text = image ? tidyText(await options.ocr.recognize(image, options.signal)) : '';
      }
      page.cleanup();
      if (text) passages.push({ text, page: number });
      options.onProgress?.({ done: number, total: pages });
    }
    return passages;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await task.destroy().catch(() => {});
  }
}

type PdfPage = Awaited<
  ReturnType<Awaited<ReturnType<typeof import('pdfjs-dist/legacy/build/pdf.mjs')['getDocument']>['promise']>['getPage']>
>;

// pdf.js operators that put ink on the page; a page with none of them is blank, whatever its size.
const inkOperators = [
  'stroke',
  'closeStroke',
  'fill',
  'eoFill',
  'fillStroke',
  'eoFillStroke',
  'closeFillStroke',
  'closeEOFillStroke',
  'showText',
  'showSpacedText',
  'nextLineShowText',
  'nextLineSetSpacingShowText',
  'shadingFill',
  'paintXObject',
  'paintImageMaskXObject',
  'paintImageMaskXObjectGroup',
  'paintImageXObject',
  'paintInlineImageXObject',
  'paintInlineImageXObjectGroup',
  'paintImageXObjectRepeat',
  'paintImageMaskXObjectRepeat',
  'paintSolidColorImageMask',
  'constructPath',
  'rawFillPath',
] as const;

/**
 * Renders a page at about 200 dpi as PNG for OCR, never above 4000 px a side; null when the page is blank
 * (nothing to read, so no OCR is spent on it): no drawing operator at all, or nothing but near-white pixels.
 */
async function renderPage(page: PdfPage): Promise<Buffer | null> {
  const { OPS } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const ink = new Set<number>(inkOperators.map((name) => OPS[name]));
  const { fnArray } = await page.getOperatorList();
  if (!fnArray.some((op) => ink.has(op))) return null;
  const { createCanvas } = await import('@napi-rs/canvas');
  const base = page.getViewport({ scale: 1 });
  const scale = Math.min(200 / 72, 4000 / Math.max(base.width, base.height));
  const viewport = page.getViewport({ scale });
  const canvas = createCanvas(Math.max(1, Math.ceil(viewport.width)), Math.max(1, Math.ceil(viewport.height)));
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise;
  if (isBlank(context.getImageData(0, 0, canvas.width, canvas.height).data)) return null;
  return canvas.toBuffer('image/png');
}

/** True when every pixel is near white: a page with nothing drawn on it. */
function isBlank(rgba: Uint8ClampedArray): boolean {
  for (let i = 0; i < rgba.length; i += 4) {
    if ((rgba[i] ?? 255) < 235 || (rgba[i + 1] ?? 255) < 235 || (rgba[i + 2] ?? 255) < 235) return false;
  }
  return true;
}
