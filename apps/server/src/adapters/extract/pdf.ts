import { constants, inflateSync } from 'node:zlib';
import type { ExtractProgress, Passage } from './extracted';
import { tidyText, UnreadableFileError } from './extracted';
import type { FigureCollector } from './figures';
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
  /** Given, each page's embedded images (and the render of a page that is mostly drawing) go to it. */
  figures?: FigureCollector;
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
    let renders = 0;
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
      if (options.figures?.wants()) {
        const found = await pageFigures(page, text, options.figures, renders < maxDrawingRenders);
        if (found === 'rendered') renders++;
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

// Pages rendered whole as figures (drawings without an embedded image) per document at most.
const maxDrawingRenders = 10;
// A page with this many path-drawing operators and little text is taken for a drawing (a diagram, a circuit).
const minDrawingPaths = 40;
const maxDrawingLetters = 600;

// pdf.js image kinds (ImageKind): 1 bit per pixel, RGB, RGBA.
const grayscale1Bpp = 1;
const rgb24Bpp = 2;
const rgba32Bpp = 3;

interface PdfImage {
  width: number;
  height: number;
  kind?: number;
  data?: Uint8Array | Uint8ClampedArray;
}

/** A pdf.js decoded image as raw pixels sharp reads: 1-bit images unpacked to 8-bit grey. */
function rawOf(image: PdfImage | null): { raw: Uint8Array; width: number; height: number; channels: 1 | 3 | 4 } | null {
  if (!image) return null;
  const { width, height, kind, data } = image;
  if (!data || !width || !height) return null;
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (kind === rgb24Bpp) return { raw: bytes, width, height, channels: 3 };
  if (kind === rgba32Bpp) return { raw: bytes, width, height, channels: 4 };
  if (kind !== grayscale1Bpp) return null;
  const rowBytes = (width + 7) >> 3;
  const grey = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const byte = bytes[y * rowBytes + (x >> 3)] ?? 0;
      grey[y * width + x] = byte & (0x80 >> (x & 7)) ? 255 : 0;
    }
  }
  return { raw: grey, width, height, channels: 1 };
}

// How long to wait for pdf.js to hand over a decoded image before the image is skipped.
const imageWaitMs = 5000;

/** A page's image object once pdf.js has decoded it (it arrives after the operator list), or null past the wait. */
function resolvedImage(page: PdfPage, id: string): Promise<PdfImage | null> {
  const store = id.startsWith('g_') ? page.commonObjs : page.objs;
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), imageWaitMs);
    store.get(id, (image: unknown) => {
      clearTimeout(timer);
      resolve((image as PdfImage | null) ?? null);
    });
  });
}

/**
 * Hands a page's embedded images to the collector; a page with none that is mostly drawing (many paths, little
 * text) is rendered and given instead, trimmed to its drawing. Answers 'rendered' when it rendered the page.
 */
async function pageFigures(
  page: PdfPage,
  text: string,
  figures: FigureCollector,
  mayRender: boolean,
): Promise<'rendered' | 'images'> {
  const { OPS } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const { fnArray, argsArray } = await page.getOperatorList();
  let images = 0;
  let paths = 0;
  for (const [index, op] of fnArray.entries()) {
    if (op === OPS.constructPath) paths++;
    if (op !== OPS.paintImageXObject || !figures.wants()) continue;
    const id = (argsArray[index] as unknown[])[0];
    if (typeof id !== 'string') continue;
    const raw = rawOf(await resolvedImage(page, id));
    if (!raw) continue;
    images++;
    await figures.add({ page: page.pageNumber, image: raw });
  }
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  if (images > 0 || !mayRender || paths < minDrawingPaths || letters > maxDrawingLetters) return 'images';
  const rendered = await renderPage(page);
  if (!rendered) return 'images';
  await figures.add({ page: page.pageNumber, image: rendered, trim: true });
  return 'rendered';
}
