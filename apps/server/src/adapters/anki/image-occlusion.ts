import type { OcclusionMask, OcclusionMode } from '@flashcards/shared/notes';

/**
 * Anki's Image Occlusion (23.10 and later) keeps a note's masks in its Occlusion field as cloze deletions, one per
 * shape: `{{c2::image-occlusion:rect:left=.1:top=.2:width=.3:height=.1:oi=1}}`. Positions are fractions of the
 * image (`left`/`top` the top-left of the shape's box; an ellipse gives its radii `rx`/`ry`, a polygon its
 * `points` "x,y x,y"); `:` and `\` inside a value are escaped with `\`; `oi=1` means "hide all, guess one"; the
 * cloze number is the card (our group); `text` shapes (number 0) are labels, not masks. This reads and writes that
 * syntax (the format of rslib/src/image_occlusion/imageocclusion.rs and ts/routes/image-occlusion/shapes).
 */

/** Anki's OriginalStockKind of the Image Occlusion note type (proto/anki/notetypes.proto). */
export const imageOcclusionStockKind = 6;

/** The field tags of Anki's Image Occlusion note type (ImageOcclusionField), which say which field is which. */
export const imageOcclusionFieldTags = { occlusions: 0, image: 1, header: 2, backExtra: 3, comments: 4 } as const;

export interface ParsedOcclusions {
  masks: OcclusionMask[];
  mode: OcclusionMode;
  /** Polygons, imported as their bounding box (our masks have no polygon). */
  polygons: number;
  /** Shapes left out: unknown kind, a missing or unreadable position, an empty box, a cloze number out of range. */
  invalid: number;
  /** More masks than `maxMasks`: reading stopped there. */
  tooMany: boolean;
}

const clozeStart = /\{\{c(\d{1,6})::image-occlusion:/g;

/** `name=value` pairs after the shape's kind, split on unescaped `:` and unescaped (Anki's escaped_transform). */
function properties(text: string): { kind: string; props: Map<string, string> } {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i] as string;
    if (char === '\\' && i + 1 < text.length) {
      current += text[i + 1];
      i += 1;
    } else if (char === ':') {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  const [kind = '', ...rest] = parts;
  const props = new Map<string, string>();
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq > 0) props.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return { kind: kind.trim(), props };
}

const fraction = (value: string | undefined): number => {
  if (value === undefined || value === '') return Number.NaN;
  const number = Number(value);
  return Number.isFinite(number) ? number : Number.NaN;
};

/** A polygon's box: its points' extent, placed at `left`/`top` as Anki's review draws it. */
function polygonBox(props: Map<string, string>): { x: number; y: number; w: number; h: number } | null {
  const points = (props.get('points') ?? '')
    .split(/\s+/)
    .map((pair) => pair.split(',').map(fraction))
    .filter((pair): pair is [number, number] => pair.length === 2 && pair.every((n) => !Number.isNaN(n)));
  if (points.length < 3) return null;
  const xs = points.map(([x]) => x);
  const ys = points.map(([, y]) => y);
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  const left = fraction(props.get('left'));
  const top = fraction(props.get('top'));
  return {
    x: Number.isNaN(left) ? minX : left,
    y: Number.isNaN(top) ? minY : top,
    w: Math.max(...xs) - minX,
    h: Math.max(...ys) - minY,
  };
}

/** One shape as our mask (clamped into the image), or null when it is not a usable mask. */
function toMask(kind: string, props: Map<string, string>, group: number): OcclusionMask | null {
  let box: { x: number; y: number; w: number; h: number } | null;
  if (kind === 'rect') {
    box = {
      x: fraction(props.get('left')),
      y: fraction(props.get('top')),
      w: fraction(props.get('width')),
      h: fraction(props.get('height')),
    };
  } else if (kind === 'ellipse') {
    box = {
      x: fraction(props.get('left')),
      y: fraction(props.get('top')),
      w: 2 * fraction(props.get('rx')),
      h: 2 * fraction(props.get('ry')),
    };
  } else if (kind === 'polygon') {
    box = polygonBox(props);
  } else {
    return null;
  }
  if (!box || [box.x, box.y, box.w, box.h].some((n) => Number.isNaN(n))) return null;
  // Anki keeps 4 decimals; rounding to 6 drops the float noise of sums and doublings without moving a pixel.
  const round = (n: number) => Math.round(n * 1e6) / 1e6;
  const x = round(Math.min(Math.max(box.x, 0), 1));
  const y = round(Math.min(Math.max(box.y, 0), 1));
  const w = round(Math.min(box.x + box.w, 1) - x);
  const h = round(Math.min(box.y + box.h, 1) - y);
  if (!(w > 0 && h > 0)) return null;
  return kind === 'ellipse' ? { x, y, w, h, group, shape: 'ellipse' } : { x, y, w, h, group };
}

/**
 * The masks of an Image Occlusion note's Occlusion field. Reading stops once `maxMasks` masks are passed
 * (`tooMany`), so a field of thousands of shapes costs no more than that.
 */
export function parseOcclusionField(field: string, limits: { maxMasks: number; maxGroup: number }): ParsedOcclusions {
  const result: ParsedOcclusions = { masks: [], mode: 'hide_one', polygons: 0, invalid: 0, tooMany: false };
  let hideAll = false;
  clozeStart.lastIndex = 0;
  for (let match = clozeStart.exec(field); match; match = clozeStart.exec(field)) {
    const start = match.index + match[0].length;
    const end = field.indexOf('}}', start);
    if (end < 0) {
      result.invalid += 1;
      break;
    }
    clozeStart.lastIndex = end + 2;
    const group = Number(match[1]);
    const { kind, props } = properties(field.slice(start, end));
    // Text shapes are labels drawn on the image (Anki gives them number 0): no card, no mask.
    if (kind === 'text') continue;
    const mask = group >= 1 && group <= limits.maxGroup ? toMask(kind, props, group) : null;
    if (!mask) {
      result.invalid += 1;
      continue;
    }
    if (result.masks.length >= limits.maxMasks) {
      result.tooMany = true;
      break;
    }
    if (kind === 'polygon') result.polygons += 1;
    if (props.get('oi') === '1') hideAll = true;
    result.masks.push(mask);
  }
  result.mode = hideAll ? 'hide_all' : 'hide_one';
  return result;
}

/** A fraction as Anki writes it: at most 4 decimals, no leading zero, `.0000` for zero (floatToDisplay). */
export function ankiFraction(value: number): string {
  if (Number.isNaN(value) || value === 0) return '.0000';
  return value.toFixed(4).replace(/^0+|0+$/g, '');
}

/** Our masks as Anki's Occlusion field: one cloze per mask, its group the cloze number, each followed by `<br>`. */
export function occlusionField(masks: readonly OcclusionMask[], mode: OcclusionMode): string {
  return masks
    .map((mask) => {
      const position =
        mask.shape === 'ellipse'
          ? `ellipse:left=${ankiFraction(mask.x)}:top=${ankiFraction(mask.y)}:rx=${ankiFraction(mask.w / 2)}:ry=${ankiFraction(mask.h / 2)}`
          : `rect:left=${ankiFraction(mask.x)}:top=${ankiFraction(mask.y)}:width=${ankiFraction(mask.w)}:height=${ankiFraction(mask.h)}`;
      return `{{c${mask.group}::image-occlusion:${position}${mode === 'hide_all' ? ':oi=1' : ''}}}<br>`;
    })
    .join('');
}

/** The first `<img src="…">` of the Image field, as Anki reads it (extract_img_src), or null. */
export function imageSource(field: string): string | null {
  const match = /<img\s[^>]*?src\s*=\s*(?:"([^"]+)"|'([^']+)'|([^\s>]+))/i.exec(field);
  return match ? (match[1] ?? match[2] ?? match[3] ?? null) : null;
}

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** The Image field of an exported note. */
export const imageField = (name: string) => `<img src="${escapeHtml(name)}">`;
