import { createHash } from 'node:crypto';
import sharp, { type Sharp } from 'sharp';

/** A picture of a document, checked (and re-encoded when needed) in the parser process, with the page or slide it is on. */
export interface Figure {
  /** 1-based page of a PDF. */
  page?: number;
  /** 1-based slide of a PPTX. */
  slide?: number;
  /** The text of the paragraph a DOCX image sits in or next to. */
  near?: string;
  /** PNG only for an original kept as it was (within the caps, opaque, without metadata); otherwise re-encoded JPEG. */
  contentType: 'image/jpeg' | 'image/png';
  width: number;
  height: number;
  data: Uint8Array;
}

/** True when every channel of these RGB pixels stays within a few levels of its mean. */
function isPlain(rgb: Buffer): boolean {
  for (let channel = 0; channel < 3; channel++) {
    let sum = 0;
    let squares = 0;
    let count = 0;
    for (let i = channel; i < rgb.length; i += 3) {
      const value = rgb[i] ?? 0;
      sum += value;
      squares += value * value;
      count++;
    }
    const mean = sum / Math.max(1, count);
    if (squares / Math.max(1, count) - mean * mean >= 16) return false;
  }
  return true;
}

/** How many figures a document gives at most, and how large each may be. */
export interface FigureLimits {
  maxFigures: number;
  /** Pixels of a source image at most: larger ones are dropped before they are decoded. */
  maxSourcePixels: number;
  /** Bytes of a source image at most. */
  maxSourceBytes: number;
  /** The longest side of a figure as stored (larger ones are scaled down). */
  maxSide: number;
  /** Bytes of a figure as stored at most. */
  maxBytes: number;
  /** Images with a side below this are icons, bullets or rules, not figures. */
  minSide: number;
  /** Time spent on figures per document at most; the figures found by then are kept. */
  budgetMs: number;
}

export const defaultFigureLimits: FigureLimits = {
  maxFigures: 40,
  maxSourcePixels: 40_000_000,
  maxSourceBytes: 20 * 1024 * 1024,
  maxSide: 1600,
  maxBytes: 1024 * 1024,
  minSide: 64,
  budgetMs: 20_000,
};

/** An image found in a document, not yet decoded: encoded bytes (PNG, JPEG…) or raw pixels (a PDF's images). */
export interface FigureCandidate {
  page?: number;
  slide?: number;
  near?: string;
  /** Marked decorative by the author (PowerPoint's "Mark as decorative"). */
  decorative?: boolean;
  image: Buffer | { raw: Uint8Array; width: number; height: number; channels: 1 | 2 | 3 | 4 };
  /** A rendered page: its white margins are cut away, leaving the drawing. */
  trim?: boolean;
}

/**
 * Whether the same image on `places` of `totalPlaces` pages or slides is furniture (a logo, a background, a
 * footer) rather than a figure: on three places or more, or on every place of a document of two.
 */
export function isRepeated(places: number, totalPlaces: number): boolean {
  return places >= 3 || (totalPlaces >= 2 && places >= totalPlaces);
}

// Figures kept beyond the cap while reading, so that images later found repeated can be dropped without losing the count.
const spareFigures = 8;

/**
 * Gathers the figures worth showing on cards as a document is read, page by page, so that a long PDF never holds
 * more than the capped figures: repeated images (same bytes hash on several pages) are decoded once and dropped at
 * the end, images marked decorative, tiny ones and thin rules are skipped on their header; an opaque JPEG or PNG
 * within the stored caps and without metadata is kept as it is; any other is decoded under the pixel cap, skipped
 * when near-uniform, and re-encoded as JPEG no larger than `maxSide`. An image that fails to decode (truncated, a
 * bomb, a huge header) is dropped silently. Work stops at the time budget, keeping what was found.
 */
export function createFigureCollector(limits: FigureLimits) {
  sharp.cache(false);
  sharp.concurrency(1);
  const started = performance.now();
  const placesOf = new Map<string, Set<number>>();
  const kept: { hash: string; figure: Figure }[] = [];
  return {
    /** False once the collector takes no more (the cap or the time budget reached): the reader may skip images. */
    wants(): boolean {
      return kept.length < limits.maxFigures + spareFigures && performance.now() - started <= limits.budgetMs;
    },
    async add(candidate: FigureCandidate): Promise<void> {
      if (candidate.decorative) return;
      const hash = hashOf(candidate);
      const places = placesOf.get(hash);
      placesOf.set(hash, (places ?? new Set<number>()).add(candidate.page ?? candidate.slide ?? 0));
      if (places || !this.wants()) return;
      const figure = await reencode(candidate, limits);
      if (figure) kept.push({ hash, figure });
    },
    /**
     * Adds the images of a document read whole (PPTX, DOCX): the repeated ones are known before any decode, so they
     * and those beyond the cap are never decoded; two are checked at a time, so that both cores work.
     */
    async addAll(candidates: readonly FigureCandidate[], totalPlaces: number): Promise<void> {
      const todo: { hash: string; candidate: FigureCandidate }[] = [];
      for (const candidate of candidates) {
        const hash = hashOf(candidate);
        const places = placesOf.get(hash);
        placesOf.set(hash, (places ?? new Set<number>()).add(candidate.page ?? candidate.slide ?? 0));
        if (!places && !candidate.decorative) todo.push({ hash, candidate });
      }
      const wanted = todo.filter(({ hash }) => !isRepeated(placesOf.get(hash)?.size ?? 0, totalPlaces));
      for (let at = 0; at < wanted.length && kept.length < limits.maxFigures && this.wants(); at += 2) {
        const batch = wanted.slice(at, at + 2);
        const figures = await Promise.all(batch.map(({ candidate }) => reencode(candidate, limits)));
        figures.forEach((figure, index) => {
          const hash = batch[index]?.hash;
          if (figure && hash && kept.length < limits.maxFigures) kept.push({ hash, figure });
        });
      }
    },
    /** The figures in document order, without the images repeated across `totalPlaces` pages or slides. */
    finish(totalPlaces: number): Figure[] {
      return kept
        .filter(({ hash }) => !isRepeated(placesOf.get(hash)?.size ?? 0, totalPlaces))
        .slice(0, limits.maxFigures)
        .map(({ figure }) => figure);
    },
  };
}

export type FigureCollector = ReturnType<typeof createFigureCollector>;

const hashOf = ({ image }: FigureCandidate) =>
  createHash('sha256')
    .update(Buffer.isBuffer(image) ? image : image.raw)
    .digest('hex');

// Originals stored as they are when they need no change: a format every browser decodes, served as such.
const keptFormats = { jpeg: 'image/jpeg', png: 'image/png' } as const;
const jpegEnd = Buffer.from([0xff, 0xd9]);
const pngEnd = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

/** Whether the file ends as a whole one does (a JPEG's end-of-image marker, a PNG's IEND chunk): cut ones do not. */
function endsWhole(image: Buffer, format: 'jpeg' | 'png'): boolean {
  const end = format === 'jpeg' ? jpegEnd : pngEnd;
  return image.subarray(image.byteLength - end.byteLength).equals(end);
}

async function reencode(candidate: FigureCandidate, limits: FigureLimits): Promise<Figure | null> {
  const { image } = candidate;
  const place = {
    ...(candidate.page !== undefined ? { page: candidate.page } : {}),
    ...(candidate.slide !== undefined ? { slide: candidate.slide } : {}),
    ...(candidate.near ? { near: candidate.near } : {}),
  };
  try {
    let input: Sharp;
    let width: number;
    let height: number;
    if (Buffer.isBuffer(image)) {
      if (image.byteLength > limits.maxSourceBytes) return null;
      // The header alone first: a 30,000 × 30,000 claim, an icon or a strip is dropped before any pixel is decoded.
      const metadata = await sharp(image, { limitInputPixels: false }).metadata();
      width = metadata.width ?? 0;
      height = metadata.pageHeight ?? metadata.height ?? 0;
      if (!width || !height || width * height > limits.maxSourcePixels) return null;
      if (!isFigureShaped(width, height, limits)) return null;
      const format = metadata.format === 'jpeg' || metadata.format === 'png' ? metadata.format : null;
      // Kept as is, never decoded here (a browser decodes it, from a sandboxed nosniff response), when re-encoding
      // would change nothing that matters: within the stored caps, one frame, whole, no transparency to flatten, and
      // no EXIF, XMP or IPTC (a photo's camera, place, time and orientation), which re-encoding strips. Decoding one
      // costs more than reading the whole deck's text, so the near-uniform check is left to re-encoded images.
      if (
        format &&
        !candidate.trim &&
        Math.max(width, height) <= limits.maxSide &&
        image.byteLength <= limits.maxBytes &&
        (metadata.pages ?? 1) === 1 &&
        !metadata.hasAlpha &&
        !metadata.exif &&
        !metadata.xmp &&
        !metadata.iptc &&
        (metadata.space === 'srgb' || metadata.space === 'b-w') &&
        endsWhole(image, format)
      ) {
        return {
          ...place,
          contentType: keptFormats[format],
          width,
          height,
          data: new Uint8Array(image.buffer, image.byteOffset, image.byteLength),
        };
      }
      input = sharp(image, {
        limitInputPixels: limits.maxSourcePixels,
        failOn: 'truncated',
        animated: false,
        sequentialRead: true,
      });
    } else {
      ({ width, height } = image);
      if (width * height > limits.maxSourcePixels) return null;
      if (!isFigureShaped(width, height, limits)) return null;
      input = sharp(image.raw, { raw: { width, height, channels: image.channels } });
    }
    if (candidate.trim) input = sharp(await input.trim({ threshold: 20 }).png().toBuffer());
    // A near-uniform image (a plain background, a colour block) carries nothing to learn; judged on a thumbnail,
    // which a JPEG decodes at a fraction of its size.
    const thumb = await input
      .clone()
      .resize(64, 64, { fit: 'inside' })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer();
    if (isPlain(thumb)) return null;
    // JPEG rather than WebP: several times faster to encode, and figures are pictures, not line art at 1:1.
    const { data, info } = await input
      .rotate()
      .resize(limits.maxSide, limits.maxSide, { fit: 'inside', withoutEnlargement: true, fastShrinkOnLoad: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 80 })
      .toBuffer({ resolveWithObject: true });
    if (data.byteLength > limits.maxBytes) return null;
    return {
      ...place,
      contentType: 'image/jpeg',
      width: info.width,
      height: info.height,
      data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    };
  } catch {
    return null;
  }
}

/** False for icons, bullets and rules (a side below the minimum) and thin strips (a banner's edge): decoration. */
function isFigureShaped(width: number, height: number, limits: FigureLimits): boolean {
  return Math.min(width, height) >= limits.minSide && Math.max(width, height) <= 8 * Math.min(width, height);
}
