import { createHash, createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { limits } from '@flashcards/shared/limits';
import { fillMessage } from '@flashcards/shared/messages';
import {
  type CreatableNoteContent,
  noteLimits,
  noteProblemText,
  parseCloze,
  type RenderedCard,
  renderNote,
} from '@flashcards/shared/notes';
import { serverMessages } from '@flashcards/shared/server-messages';
import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import {
  type AnkiCard,
  type AnkiNotetype,
  InvalidPackageError,
  readAnkiPackage,
  TooManyCardsError,
  UnexpectedSchemaError,
} from '../../adapters/anki/anki-package';
import { createHtmlToMarkdown, isBlankMarkdown } from '../../adapters/anki/html-to-markdown';
import { imageSource, parseOcclusionField } from '../../adapters/anki/image-occlusion';
import { type NotetypeShape, notetypeShape } from '../../adapters/anki/note-shapes';
import { clozeNumbers, fieldIsEmpty, renderCard, TemplateTooComplexError } from '../../adapters/anki/template';
import { decodeText, InvalidTextFileError, parseTextFile } from '../../adapters/anki/text-import';

export type ImportKind = 'apkg' | 'txt' | 'csv' | 'tsv';

export interface ParseInput {
  filePath: string;
  kind: ImportKind;
  /** The deck of a text file without a `#deck:` header (the form's deck_name, else the file's name). */
  defaultDeckName: string;
  /** The user's media secret: stored media names depend on it. */
  mediaSecret: string;
  maxUnzippedBytes: number;
  /** The cards the user has room for: a file with more is refused before its notes are read. */
  maxCards: number;
  /** One image's bytes and declared pixels at most; a larger image is left out (counted in imagesTooLarge). */
  maxImageBytes: number;
  maxImagePixels: number;
}

/** A note guid longer than this is not Anki's (Anki's are 10 characters): the note is skipped. */
export const maxGuidLength = 64;
/** A note field longer than this is not rendered: the card is skipped as too long. */
export const maxFieldLength = 100_000;

/** A note as it will be stored: its deck, its Anki guid (null for text rows without one), content and cards. */
export interface ParsedNote {
  deck: string;
  /** The Anki note's guid; null for text rows without one. Notes rendered from one Anki note share it. */
  guid: string | null;
  content: CreatableNoteContent;
  /** The cards the note makes (renderNote), in ord order. */
  cards: RenderedCard[];
  /** Names of the stored media the note's fields show. */
  media: string[];
}

export interface ParsedMedia {
  name: string;
  sha256: string;
  contentType: string;
  data: Uint8Array;
}

/** Skipped lines of a text file named in `warnings`, at most this many (then a count of the rest). */
export const maxListedLines = 20;

export interface ParseResult {
  notes: ParsedNote[];
  media: ParsedMedia[];
  /** Cards left out: empty question, unknown note type or template, or a side over the length limit. */
  skipped: number;
  sounds: number;
  missingImages: number;
  tooLong: number;
  /** Images left out for their size or declared pixels. */
  imagesTooLarge: number;
  /** Image Occlusion notes left out (no image, no readable mask, too many masks); their cards count in skipped. */
  occlusionSkipped: number;
  /** Polygon masks of Image Occlusion notes, imported as their bounding box. */
  occlusionPolygons: number;
  /** Text files: the first `maxListedLines` skipped lines, each with its number and why. */
  skippedLines: { line: number; reason: string }[];
  /** Text files: every skipped line, listed or not. */
  skippedLineCount: number;
}

/** Why a file is refused (422), as it crosses from the reading process to the server. */
export type ImportRefusal =
  | { reason: 'unreadable'; message: string }
  | { reason: 'schema'; message: string }
  | { reason: 'tooManyCards'; count: number }
  | { reason: 'template'; message: string };

/** Raster images a browser shows; never SVG (it can carry script). */
const imageTypes = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp']);

/** The stored name of an image: unguessable without the user's secret, the same for the same content. */
export function mediaName(secret: string, sha256: string, ext: string): string {
  return `${createHmac('sha256', secret).update(sha256).digest('hex').slice(0, 40)}.${ext}`;
}

export function cleanDeckName(name: string): string {
  const cleaned = name
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
    .replace(/[\u0000-\u001f]/g, ' ')
    .split('::')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .join('::')
    .slice(0, limits.maxDeckNameLength)
    .trim();
  return cleaned || 'Default';
}

/** Text without U+0000, which PostgreSQL's text cannot hold (and no card needs). */
const withoutNul = (text: string) => text.replaceAll('\u0000', '');

/** Reads an uploaded file into cards and images. Runs in a child process of its own (import-job.ts). */
export async function parseImport(input: ParseInput): Promise<ParseResult> {
  const bytes = await readFile(input.filePath);
  return input.kind === 'apkg' ? parsePackage(bytes, input) : parseText(bytes, input);
}

async function parsePackage(bytes: Buffer, input: ParseInput): Promise<ParseResult> {
  const { collection, media } = await readAnkiPackage(bytes, input.maxUnzippedBytes, {
    workDir: path.dirname(input.filePath),
    maxCards: input.maxCards,
  });
  const images = new Map<string, ParsedMedia>();
  let imagesTooLarge = 0;
  const tooLarge = new Set<string>();
  for (const [name, data] of media) {
    const type = await fileTypeFromBuffer(data);
    if (!type || !imageTypes.has(type.mime)) continue;
    if (data.length > input.maxImageBytes || declaredPixels(data) > input.maxImagePixels) {
      imagesTooLarge += 1;
      tooLarge.add(name);
      continue;
    }
    const sha256 = createHash('sha256').update(data).digest('hex');
    images.set(name, { name: mediaName(input.mediaSecret, sha256, type.ext), sha256, contentType: type.mime, data });
  }

  let used = new Set<string>();
  const usedAll = new Map<string, ParsedMedia>();
  /** The stored image a field's `src` names (as written, or percent-encoded), now counted as used. */
  const useImage = (src: string): ParsedMedia | undefined => {
    let image = images.get(src);
    if (!image) {
      try {
        image = images.get(decodeURIComponent(src));
      } catch {
        // not percent-encoded
      }
    }
    if (!image) return undefined;
    used.add(image.name);
    usedAll.set(image.name, image);
    return image;
  };
  const toMarkdown = createHtmlToMarkdown((src) => {
    if (/^https:\/\//i.test(src)) return src;
    const image = useImage(src);
    return image ? `/media/${image.name}` : null;
  });

  const result = emptyParseResult();
  result.imagesTooLarge = imagesTooLarge;
  const shapes = new Map<number, NotetypeShape>();
  const shapeOf = (id: number, notetype: AnkiNotetype) => {
    let shape = shapes.get(id);
    if (!shape) {
      shape = notetypeShape(notetype);
      shapes.set(id, shape);
    }
    return shape;
  };
  /** One field or rendered side as markdown, its images resolved and its sounds counted. */
  const convert = (html: string): string => {
    const converted = toMarkdown(html);
    result.sounds += converted.notes.sounds;
    result.missingImages += converted.notes.missingImages;
    return withoutNul(converted.markdown);
  };
  // Cards come ordered by note, then ordinal: each run of one note's cards is read at once.
  const cards = collection.cards;
  for (let start = 0; start < cards.length; ) {
    const noteId = (cards[start] as AnkiCard).noteId;
    let end = start + 1;
    while (end < cards.length && (cards[end] as AnkiCard).noteId === noteId) end += 1;
    const noteCards = cards.slice(start, end);
    start = end;
    const note = collection.notes.get(noteId);
    const notetype = note ? collection.notetypes.get(note.notetypeId) : undefined;
    if (!note || !notetype || note.guid.length > maxGuidLength) {
      result.skipped += noteCards.length;
      continue;
    }
    if (note.fields.some((field) => field.length > maxFieldLength)) {
      result.skipped += noteCards.length;
      result.tooLong += noteCards.length;
      continue;
    }
    // A note goes to the deck of its first card (Anki lets one note's cards sit in several decks; a note here has one).
    const deck = cleanDeckName(collection.decks.get((noteCards[0] as AnkiCard).deckId) ?? 'Default');
    const guid = withoutNul(note.guid) || null;
    used = new Set();
    const counted = { sounds: result.sounds, missingImages: result.missingImages };
    const shape = shapeOf(note.notetypeId, notetype);
    if (shape.kind === 'occlusion') {
      // An Image Occlusion note is an occlusion note or nothing: its templates render only in Anki's own reviewer.
      const content = occlusionNote(shape, note.fields, convert, { use: useImage, tooLarge }, result);
      const rendered = content ? renderNote(content) : [];
      if (!content || rendered.length === 0 || tooLongFields(content)) {
        result.skipped += noteCards.length;
        result.occlusionSkipped += 1;
        continue;
      }
      result.notes.push({ deck, guid, content, cards: rendered, media: [...used] });
      continue;
    }
    const typed = typedNote(shape, note.fields, convert);
    if (typed) {
      const rendered = renderNote(typed);
      if (rendered.length > 0 && rendered.every((card) => !isBlankMarkdown(card.question))) {
        if (rendered.some((card) => tooLongCard(card)) || tooLongFields(typed)) {
          result.skipped += rendered.length;
          result.tooLong += rendered.length;
          continue;
        }
        result.notes.push({ deck, guid, content: typed, cards: rendered, media: [...used] });
        continue;
      }
    }
    // Any other note type, or a note that does not fit its type here: each card rendered from its template (what
    // the typed attempt counted is counted again there).
    result.sounds = counted.sounds;
    result.missingImages = counted.missingImages;
    const fields = new Map(notetype.fields.map((name, index) => [name, note.fields[index] ?? '']));
    for (const card of noteCards) {
      const template = notetype.cloze ? notetype.templates[0] : notetype.templates[card.ord];
      if (!template || (notetype.cloze && !hasCloze(fields, card.ord + 1))) {
        result.skipped += 1;
        continue;
      }
      const html = renderCard(template, fields, card.ord);
      used = new Set();
      const front = convert(html.question);
      const back = convert(html.answer);
      if (isBlankMarkdown(front)) {
        result.skipped += 1;
        continue;
      }
      const content: CreatableNoteContent = { type: 'basic', fields: { front, back } };
      const rendered = renderNote(content);
      if (rendered.some((one) => tooLongCard(one))) {
        result.skipped += 1;
        result.tooLong += 1;
        continue;
      }
      result.notes.push({ deck, guid, content, cards: rendered, media: [...used] });
    }
  }
  result.media = [...usedAll.values()];
  return result;
}

/**
 * The occlusion note an Anki Image Occlusion note makes: its image (one of the package's images, stored as the
 * user's media), its masks (polygons as their bounding box), its header and back extra as markdown; or null when
 * the image is missing or not kept, or no mask can be read, or the masks are more than a note may hold.
 */
function occlusionNote(
  shape: Extract<NotetypeShape, { kind: 'occlusion' }>,
  fields: string[],
  convert: (html: string) => string,
  images: { use: (src: string) => ParsedMedia | undefined; tooLarge: ReadonlySet<string> },
  result: ParseResult,
): CreatableNoteContent | null {
  const field = (index: number) => (index >= 0 ? (fields[index] ?? '') : '');
  const occlusions = parseOcclusionField(field(shape.occlusions), {
    maxMasks: noteLimits.maxOcclusionMasks,
    maxGroup: noteLimits.maxOcclusionGroup,
  });
  if (occlusions.tooMany || occlusions.masks.length === 0) return null;
  const src = imageSource(field(shape.image))?.replaceAll('&amp;', '&');
  const image = src ? images.use(src) : undefined;
  if (!image) {
    // An image left out for its size is already counted in imagesTooLarge.
    if (!src || !images.tooLarge.has(src)) result.missingImages += 1;
    return null;
  }
  result.occlusionPolygons += occlusions.polygons;
  const content: Extract<CreatableNoteContent, { type: 'occlusion' }> = {
    type: 'occlusion',
    fields: { image: image.name, masks: occlusions.masks, mode: occlusions.mode },
  };
  const header = convert(field(shape.header));
  const backExtra = convert(field(shape.backExtra));
  if (!isBlankMarkdown(header)) content.fields.header = header;
  if (!isBlankMarkdown(backExtra)) content.fields.back_extra = backExtra;
  return content;
}

/** A field over the note model's limit: such a note could not be edited here. */
const tooLongFields = (content: CreatableNoteContent) =>
  Object.values(content.fields).some((value) => typeof value === 'string' && value.length > noteLimits.maxFieldLength);

const tooLongCard = (card: RenderedCard) =>
  card.question.length > limits.maxCardSideLength || card.answer.length > limits.maxCardSideLength;

/**
 * The note an Anki note of a recognised shape makes, its fields turned into markdown, or null when it does not fit
 * that type here (a blank side a reversed card would show, a cloze text this app cannot read): its cards are then
 * rendered from their templates.
 */
function typedNote(
  shape: NotetypeShape,
  fields: string[],
  convert: (html: string) => string,
): CreatableNoteContent | null {
  const field = (index: number) => fields[index] ?? '';
  switch (shape.kind) {
    case 'basic':
      return { type: 'basic', fields: { front: convert(field(shape.front)), back: convert(field(shape.back)) } };
    case 'reversed':
    case 'optionalReversed': {
      const front = convert(field(shape.front));
      const back = convert(field(shape.back));
      // Anki makes the optional reverse only where Add Reverse is filled.
      const reverse = shape.kind === 'reversed' || !fieldIsEmpty(field(shape.addReverse));
      if (!reverse) return { type: 'basic', fields: { front, back } };
      return isBlankMarkdown(back) ? null : { type: 'reversed', fields: { front, back } };
    }
    case 'cloze': {
      const text = convert(field(shape.text));
      if (!parseCloze(text).ok) return null;
      const extra = shape.extra
        .map((index) => convert(field(index)))
        .filter((value) => !isBlankMarkdown(value))
        .join('\n\n');
      return { type: 'cloze', fields: extra ? { text, extra } : { text } };
    }
    default:
      return null;
  }
}

function hasCloze(fields: ReadonlyMap<string, string>, number: number): boolean {
  for (const value of fields.values()) if (clozeNumbers(value).has(number)) return true;
  return false;
}

/** A parse result with nothing in it yet: the counters a parse adds to. */
export function emptyParseResult(notes: ParseResult['notes'] = []): ParseResult {
  return {
    notes,
    media: [],
    skipped: 0,
    sounds: 0,
    missingImages: 0,
    tooLong: 0,
    imagesTooLarge: 0,
    occlusionSkipped: 0,
    occlusionPolygons: 0,
    skippedLines: [],
    skippedLineCount: 0,
  };
}

async function parseText(bytes: Buffer, input: ParseInput): Promise<ParseResult> {
  const file = parseTextFile(decodeText(bytes), input.kind as 'txt' | 'csv' | 'tsv');
  if (file.rows.length > input.maxCards) throw new TooManyCardsError(file.rows.length);
  const toMarkdown = file.html ? createHtmlToMarkdown((src) => (/^https:\/\//i.test(src) ? src : null)) : null;
  const result = emptyParseResult();
  const skips: { line: number; reason: string }[] = file.repeats.map((line) => ({
    line,
    reason: serverMessages.importLineRepeated,
  }));
  const deck = cleanDeckName(file.deck ?? input.defaultDeckName);
  const convert = (text: string) => {
    if (!toMarkdown) return withoutNul(text);
    const converted = toMarkdown(text);
    result.sounds += converted.notes.sounds;
    result.missingImages += converted.notes.missingImages;
    return withoutNul(converted.markdown);
  };
  for (const row of file.rows) {
    if ((row.guid?.length ?? 0) > maxGuidLength) {
      skips.push({ line: row.line, reason: serverMessages.importLineGuidTooLong });
      continue;
    }
    const front = convert(row.front);
    const back = convert(row.back);
    if (isBlankMarkdown(front)) {
      skips.push({ line: row.line, reason: serverMessages.importLineEmptyFront });
      continue;
    }
    let content: CreatableNoteContent;
    if (row.type === 'cloze') {
      const parsed = parseCloze(front);
      if (!parsed.ok) {
        skips.push({ line: row.line, reason: noteProblemText(parsed.problem) });
        continue;
      }
      content = { type: 'cloze', fields: isBlankMarkdown(back) ? { text: front } : { text: front, extra: back } };
    } else {
      if (isBlankMarkdown(back)) {
        skips.push({ line: row.line, reason: serverMessages.importLineEmptyBack });
        continue;
      }
      content = { type: row.type, fields: { front, back } };
    }
    const cards = renderNote(content);
    if (cards.some((card) => tooLongCard(card)) || tooLongFields(content)) {
      skips.push({
        line: row.line,
        reason: fillMessage(serverMessages.importLineTooLong, { max: limits.maxCardSideLength }),
      });
      continue;
    }
    result.notes.push({
      deck: row.deck ? cleanDeckName(row.deck) : deck,
      guid: row.guid ? withoutNul(row.guid) || null : null,
      content,
      cards,
      media: [],
    });
  }
  skips.sort((a, b) => a.line - b.line);
  result.skipped = skips.length;
  result.skippedLineCount = skips.length;
  result.skippedLines = skips.slice(0, maxListedLines);
  return result;
}

/** The pixels an image's header declares (width × height), or 0 when its header cannot be read. */
function declaredPixels(data: Uint8Array): number {
  try {
    const { width, height } = imageSize(data);
    return (width ?? 0) * (height ?? 0);
  } catch {
    return 0;
  }
}

/**
 * Why reading failed, for the answer. Any error while reading a file is the file's (422): a stack overflow or an
 * impossible string length comes from what the file holds, and the reader runs in a process of its own anyway.
 */
export function describeParseError(error: unknown): ImportRefusal {
  if (error instanceof TooManyCardsError) return { reason: 'tooManyCards', count: error.count };
  if (error instanceof UnexpectedSchemaError) return { reason: 'schema', message: error.message };
  if (error instanceof TemplateTooComplexError) return { reason: 'template', message: error.message };
  if (error instanceof RangeError) return { reason: 'template', message: error.message };
  const known = error instanceof InvalidPackageError || error instanceof InvalidTextFileError;
  return { reason: 'unreadable', message: known ? error.message : String(error) };
}
