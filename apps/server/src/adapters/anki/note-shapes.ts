import type { AnkiNotetype } from './anki-package';
import { imageOcclusionFieldTags, imageOcclusionStockKind } from './image-occlusion';

/**
 * Which of this app's note types an Anki note type is, recognised by its structure (its kind, fields and
 * templates), never by its name alone: Anki names its stock note types in the user's language.
 */
export type NotetypeShape =
  | { kind: 'basic'; front: number; back: number }
  | { kind: 'reversed'; front: number; back: number }
  | { kind: 'optionalReversed'; front: number; back: number; addReverse: number }
  /** `text` holds the clozes; `extra` the other fields the templates show, in the order they first appear. */
  | { kind: 'cloze'; text: number; extra: number[] }
  /** Anki's Image Occlusion: the indexes of its Occlusion, Image, Header and Back Extra fields (-1 when absent). */
  | { kind: 'occlusion'; occlusions: number; image: number; header: number; backExtra: number }
  /** Any other note type: its cards are rendered from its templates into basic notes. */
  | { kind: 'other' };

/** The `{{…}}` references of a template, in order: section markers (`#`, `^`, `/`) and field references. */
function references(template: string): { marker: string; filters: string[]; name: string }[] {
  const found: { marker: string; filters: string[]; name: string }[] = [];
  let from = 0;
  for (;;) {
    const start = template.indexOf('{{', from);
    if (start < 0) return found;
    const end = template.indexOf('}}', start + 2);
    if (end < 0) return found;
    const inner = template.slice(start + 2, end).trim();
    const marker = '#^/!'.includes(inner[0] ?? '') ? (inner[0] as string) : '';
    const parts = (marker ? inner.slice(1) : inner).split(':');
    const name = (parts.pop() ?? '').trim();
    found.push({ marker, filters: parts.map((part) => part.trim()), name });
    from = end + 2;
  }
}

/**
 * A template reduced to what decides its shape: `{{FrontSide}}`, Anki's answer rule, HTML tags and whitespace
 * removed, so `<div>{{Front}}</div>` is the same as `{{Front}}`.
 */
function bare(template: string): string {
  return template
    .replace(/\{\{\s*FrontSide\s*\}\}/g, '')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, '')
    .replace(/\s+/g, '');
}

const ref = (name: string) => `{{${name.replace(/\s+/g, '')}}}`;

/** The shape of an Anki note type (see NotetypeShape). */
export function notetypeShape(notetype: AnkiNotetype): NotetypeShape {
  const { fields, templates } = notetype;
  if (notetype.cloze) return clozeShape(notetype);
  const [first, second] = templates;
  if (!first || fields.length < 2 || fields.length > 3) return { kind: 'other' };
  const [front, back, addReverse] = fields as [string, string, string | undefined];
  const forward = bare(first.qfmt) === ref(front) && bare(first.afmt) === ref(back);
  if (!forward) return { kind: 'other' };
  if (templates.length === 1 && fields.length === 2) return { kind: 'basic', front: 0, back: 1 };
  if (templates.length !== 2 || !second || bare(second.afmt) !== ref(front)) return { kind: 'other' };
  if (fields.length === 2 && bare(second.qfmt) === ref(back)) return { kind: 'reversed', front: 0, back: 1 };
  if (addReverse !== undefined) {
    const gate = addReverse.replace(/\s+/g, '');
    if (bare(second.qfmt) === `{{#${gate}}}${ref(back)}{{/${gate}}}`) {
      return { kind: 'optionalReversed', front: 0, back: 1, addReverse: 2 };
    }
  }
  return { kind: 'other' };
}

const specialFields = new Set(['FrontSide', 'Tags', 'Type', 'Deck', 'Subdeck', 'Card', 'CardFlag', 'CardID']);

/** A cloze note type with its clozes in exactly one field; the other fields its templates show become the extra. */
function clozeShape(notetype: AnkiNotetype): NotetypeShape {
  const template = notetype.templates[0];
  if (!template) return { kind: 'other' };
  if (notetype.originalStockKind === imageOcclusionStockKind || isImageOcclusion(template.qfmt)) {
    return occlusionShape(notetype);
  }
  const refs = [...references(template.qfmt), ...references(template.afmt)];
  const clozeFields = new Set(refs.filter((r) => r.marker === '' && r.filters.includes('cloze')).map((r) => r.name));
  if (clozeFields.size !== 1) return { kind: 'other' };
  const text = notetype.fields.indexOf([...clozeFields][0] as string);
  if (text < 0) return { kind: 'other' };
  const extra: number[] = [];
  for (const reference of refs) {
    if (reference.marker !== '' || specialFields.has(reference.name)) continue;
    const index = notetype.fields.indexOf(reference.name);
    if (index >= 0 && index !== text && !extra.includes(index)) extra.push(index);
  }
  return { kind: 'cloze', text, extra };
}

/** Anki's Image Occlusion template (rslib/src/image_occlusion/notetype.rs) draws its masks in this container. */
function isImageOcclusion(qfmt: string): boolean {
  return qfmt.includes('image-occlusion-container') || qfmt.includes('image-occlusion-canvas');
}

/**
 * Anki finds an Image Occlusion note type's fields by their tags (get_io_field_indexes); a note type written
 * without tags has them in the stock order: Occlusion, Image, Header, Back Extra, Comments.
 */
function occlusionShape(notetype: AnkiNotetype): NotetypeShape {
  const tags = notetype.fieldTags ?? [];
  const tagged = tags.some((tag) => tag !== null);
  const index = (tag: number) => {
    const found = tagged ? tags.indexOf(tag) : tag;
    return found < notetype.fields.length ? found : -1;
  };
  const shape = {
    kind: 'occlusion' as const,
    occlusions: index(imageOcclusionFieldTags.occlusions),
    image: index(imageOcclusionFieldTags.image),
    header: index(imageOcclusionFieldTags.header),
    backExtra: index(imageOcclusionFieldTags.backExtra),
  };
  return shape.occlusions < 0 || shape.image < 0 ? { kind: 'other' } : shape;
}
