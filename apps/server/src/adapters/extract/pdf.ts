import type { Passage } from './extracted';
import { tidyText, UnreadableFileError } from './extracted';
import type { OcrEngine } from './image-ocr';

export interface PdfOptions {
  maxPages: number;
  /** Pages without a text layer are rendered and OCR'd, up to this many per file. */
  maxOcrPages: number;
  ocr: OcrEngine;
  signal?: AbortSignal;
}

// A page whose text layer has fewer letters than this is treated as scanned.
const minLettersForTextLayer = 8;

/**
 * PDF through pdf.js (eval disabled, no font or worker fetches): each page's text layer, pages in order, at most
 * `maxPages`; a page with no text layer is rendered with @napi-rs/canvas and OCR'd, at most `maxOcrPages`.
 */
export async function extractPdf(bytes: Uint8Array, options: PdfOptions): Promise<Passage[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    stopAtErrors: false,
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
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str;
        text += item.hasEOL ? '\n' : item.str.endsWith(' ') ? '' : ' ';
      }
      text = tidyText(text);
      if ((text.match(/\p{L}/gu)?.length ?? 0) < minLettersForTextLayer && ocrPages < options.maxOcrPages) {
        ocrPages++;
        const image = await renderPage(page);
        text = tidyText(await options.ocr.recognize(image, options.signal));
      }
      page.cleanup();
      if (text) passages.push({ text, page: number });
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

/** Renders a page at about 200 dpi as PNG for OCR, never above 4000 px a side. */
async function renderPage(page: PdfPage): Promise<Buffer> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const base = page.getViewport({ scale: 1 });
  const scale = Math.min(200 / 72, 4000 / Math.max(base.width, base.height));
  const viewport = page.getViewport({ scale });
  const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise;
  return canvas.toBuffer('image/png');
}
