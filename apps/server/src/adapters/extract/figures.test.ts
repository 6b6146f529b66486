import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { picture } from '../../../test/fixtures/figures/make-figure-fixtures';
import { testParserLimits } from '../../../test/support/parser-limits';
import { type ExtractOptions, type ParserLimits, parseDocument } from './extractor';
import { createFigureCollector, defaultFigureLimits, type Figure, type FigureLimits, isRepeated } from './figures';
import { createTesseractOcr } from './image-ocr';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/figures');
const fixture = (name: string) => readFileSync(path.join(fixtures, name));

const limits: ParserLimits = { ...testParserLimits, maxOcrPages: 0 };

async function figuresOf(
  kind: 'pptx' | 'docx' | 'pdf',
  name: string,
  figureLimits: Partial<FigureLimits> = {},
  options: ExtractOptions = {},
) {
  return parseDocument(kind, fixture(name), limits, createTesseractOcr(), {
    ...options,
    figures: { ...defaultFigureLimits, ...figureLimits },
  });
}

/** Decodes a figure as a browser would: it must be a whole JPEG of the size it claims. */
async function decoded(figure: Figure) {
  const metadata = await sharp(figure.data, { failOn: 'truncated' }).metadata();
  await sharp(figure.data, { failOn: 'truncated' }).raw().toBuffer();
  return { format: metadata.format, width: metadata.width, height: metadata.height };
}

describe('figures of documents (fixtures made by make-figure-fixtures.ts)', () => {
  it('PPTX: the two pictures of each slide with their slide numbers; the logo on every slide and the icon skipped', async () => {
    const { passages, figures } = await figuresOf('pptx', 'slides.pptx');
    expect(passages.map((passage) => passage.slide)).toEqual([1, 2, 3]);
    expect(figures.map((figure) => figure.slide)).toEqual([1, 1, 2, 2, 3, 3]);
    for (const figure of figures) {
      expect(figure.contentType).toBe('image/jpeg');
      expect(await decoded(figure)).toEqual({ format: 'jpeg', width: 480, height: 360 });
      expect([figure.width, figure.height]).toEqual([480, 360]);
    }
    // Six different pictures: no two share their bytes.
    expect(new Set(figures.map((figure) => Buffer.from(figure.data).toString('base64'))).size).toBe(6);
  });

  it('the text is the same with figures on and off', async () => {
    const on = await figuresOf('pptx', 'slides.pptx');
    const off = await parseDocument('pptx', fixture('slides.pptx'), limits, createTesseractOcr());
    expect(off.figures).toEqual([]);
    expect(on.passages).toEqual(off.passages);
  });

  it('caps: at most maxFigures, in slide order; a figure is scaled down to maxSide; none above maxBytes', async () => {
    const capped = await figuresOf('pptx', 'slides.pptx', { maxFigures: 3 });
    expect(capped.figures.map((figure) => figure.slide)).toEqual([1, 1, 2]);
    const small = await figuresOf('pptx', 'slides.pptx', { maxSide: 200 });
    expect(small.figures.map((figure) => [figure.width, figure.height])).toEqual(Array(6).fill([200, 150]));
    const tight = await figuresOf('pptx', 'slides.pptx', { maxBytes: 100 });
    expect(tight.figures).toEqual([]);
    const fewPixels = await figuresOf('pptx', 'slides.pptx', { maxSourcePixels: 100_000 });
    expect(fewPixels.figures).toEqual([]);
  });

  it('PPTX with a 30,000 × 30,000 header and a truncated JPEG: both dropped, the rest of the deck read', async () => {
    const { passages, figures } = await figuresOf('pptx', 'hostile-picture.pptx');
    expect(passages.map((passage) => passage.slide)).toEqual([1, 2]);
    expect(figures.map((figure) => figure.slide)).toEqual([1, 2]);
    for (const figure of figures) expect(await decoded(figure)).toEqual({ format: 'jpeg', width: 480, height: 360 });
  });

  it('DOCX: the image with the text of the paragraph before it', async () => {
    const { passages, figures } = await figuresOf('docx', 'figure.docx');
    expect(passages[0]?.text).toContain('The heart has four chambers.');
    expect(figures).toHaveLength(1);
    expect(figures[0]).toMatchObject({ near: 'The heart has four chambers.', width: 480, height: 360 });
    expect(figures[0]?.page).toBeUndefined();
    expect(await decoded(figures[0] as Figure)).toEqual({ format: 'jpeg', width: 480, height: 360 });
  });

  it('PDF: the embedded PNG of page 1 and JPEG of page 3, none on the text-only page 2', async () => {
    const { passages, figures } = await figuresOf('pdf', 'figure.pdf');
    expect(passages.map((passage) => passage.page)).toEqual([1, 2, 3]);
    expect(figures.map((figure) => figure.page)).toEqual([1, 3]);
    for (const figure of figures) {
      expect(await decoded(figure)).toEqual({ format: 'jpeg', width: 480, height: 360 });
    }
  });

  it('PDF: a page that is a drawing without images (a circuit of lines) is rendered, trimmed to the drawing', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const text = pdf.addPage([595, 842]);
    text.drawText('A page of text alone, with nothing drawn on it at all.', { x: 50, y: 780, size: 12, font });
    const drawing = pdf.addPage([595, 842]);
    drawing.drawText('Figure 2: a ladder network.', { x: 50, y: 780, size: 12, font });
    for (let i = 0; i < 50; i++) {
      drawing.drawLine({ start: { x: 100 + i * 6, y: 300 }, end: { x: 100 + i * 6, y: 600 }, thickness: 2 });
      drawing.drawRectangle({ x: 100 + i * 6, y: 440, width: 4, height: 20, color: rgb(0.8, 0.1, 0.1) });
    }
    const { figures } = await parseDocument('pdf', Buffer.from(await pdf.save()), limits, createTesseractOcr(), {
      figures: defaultFigureLimits,
    });
    expect(figures.map((figure) => figure.page)).toEqual([2]);
    const [figure] = figures;
    // Trimmed: smaller than the rendered page (about 1,650 × 2,340 px): the caption and the drawing only.
    expect(figure?.width).toBeLessThan(1100);
    expect(figure?.height).toBeLessThan(1400);
    expect(await decoded(figure as Figure)).toMatchObject({ format: 'jpeg' });
  });

  it('an image is furniture on three places or more, or on every place of a short document', () => {
    expect(isRepeated(1, 1)).toBe(false);
    expect(isRepeated(1, 10)).toBe(false);
    expect(isRepeated(2, 10)).toBe(false);
    expect(isRepeated(2, 2)).toBe(true);
    expect(isRepeated(3, 50)).toBe(true);
  });
});

describe('figure collector: originals kept when within the caps, re-encoded otherwise', () => {
  async function collect(image: Buffer, figureLimits: Partial<FigureLimits> = {}) {
    const collector = createFigureCollector({ ...defaultFigureLimits, ...figureLimits });
    await collector.add({ slide: 1, image });
    return collector.finish(1);
  }

  it('a JPEG within the caps, without metadata, is stored byte for byte', async () => {
    const jpeg = picture(1, 1024, 768, 'jpeg');
    const [figure, ...rest] = await collect(jpeg);
    expect(rest).toEqual([]);
    expect(figure).toMatchObject({ slide: 1, contentType: 'image/jpeg', width: 1024, height: 768 });
    expect(Buffer.from(figure?.data ?? []).equals(jpeg)).toBe(true);
  });

  it('an opaque PNG within the caps is stored byte for byte as a PNG', async () => {
    const png = await sharp(picture(2, 640, 480, 'jpeg'))
      .png()
      .toBuffer();
    const [figure] = await collect(png);
    expect(figure).toMatchObject({ contentType: 'image/png', width: 640, height: 480 });
    expect(Buffer.from(figure?.data ?? []).equals(png)).toBe(true);
  });

  it('a JPEG with EXIF is re-encoded without it; one above maxSide is scaled down; a transparent PNG flattened to JPEG', async () => {
    const withExif = await sharp(picture(3, 800, 600, 'jpeg'))
      .withExif({ IFD0: { Make: 'Camera', Copyright: 'Someone' } })
      .jpeg()
      .toBuffer();
    expect((await sharp(withExif).metadata()).exif).toBeDefined();
    const [stripped] = await collect(withExif);
    expect(stripped).toMatchObject({ contentType: 'image/jpeg', width: 800, height: 600 });
    expect((await sharp(Buffer.from(stripped?.data ?? [])).metadata()).exif).toBeUndefined();

    const [scaled] = await collect(picture(4, 2000, 1500, 'jpeg'));
    expect(scaled).toMatchObject({ contentType: 'image/jpeg', width: 1600, height: 1200 });
    expect(await decoded(scaled as Figure)).toEqual({ format: 'jpeg', width: 1600, height: 1200 });

    const [flattened] = await collect(picture(5, 640, 480, 'png'));
    expect(flattened).toMatchObject({ contentType: 'image/jpeg', width: 640, height: 480 });
  });

  it('a near-uniform picture that needs re-encoding (above maxSide) is skipped', async () => {
    const plain = await sharp({ create: { width: 2000, height: 1500, channels: 3, background: '#3366cc' } })
      .jpeg()
      .toBuffer();
    expect(await collect(plain)).toEqual([]);
  });

  it('a JPEG within the caps but truncated, or above maxBytes once kept, is dropped', async () => {
    const jpeg = picture(6, 1024, 768, 'jpeg');
    expect(await collect(jpeg.subarray(0, Math.floor(jpeg.byteLength / 2)))).toEqual([]);
    expect(await collect(jpeg, { maxBytes: 1000 })).toEqual([]);
  });
});
