import { createHash, createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { limits } from '@flashcards/shared/limits';
import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import {
  InvalidPackageError,
  readAnkiPackage,
  TooManyCardsError,
  UnexpectedSchemaError,
} from '../../adapters/anki/anki-package';
import { createHtmlToMarkdown, isBlankMarkdown } from '../../adapters/anki/html-to-markdown';
import { clozeNumbers, renderCard, TemplateTooComplexError } from '../../adapters/anki/template';
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

export interface ParsedCard {
  deck: string;
  /** The Anki note's guid (cards of one note share it); null for text rows without one. */
  guid: string | null;
  question: string;
  answer: string;
  /** Names of the stored media the card shows. */
  media: string[];
}

export interface ParsedMedia {
  name: string;
  sha256: string;
  contentType: string;
  data: Uint8Array;
}

export interface ParseResult {
  cards: ParsedCard[];
  media: ParsedMedia[];
  /** Cards left out: empty question, unknown note type or template, or a side over the length limit. */
  skipped: number;
  sounds: number;
  missingImages: number;
  tooLong: number;
  /** Images left out for their size or declared pixels. */
  imagesTooLarge: number;
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
  for (const [name, data] of media) {
    const type = await fileTypeFromBuffer(data);
    if (!type || !imageTypes.has(type.mime)) continue;
    if (data.length > input.maxImageBytes || declaredPixels(data) > input.maxImagePixels) {
      imagesTooLarge += 1;
      continue;
    }
    const sha256 = createHash('sha256').update(data).digest('hex');
    images.set(name, { name: mediaName(input.mediaSecret, sha256, type.ext), sha256, contentType: type.mime, data });
  }

  let used = new Set<string>();
  const usedAll = new Map<string, ParsedMedia>();
  const toMarkdown = createHtmlToMarkdown((src) => {
    if (/^https:\/\//i.test(src)) return src;
    let image = images.get(src);
    if (!image) {
      try {
        image = images.get(decodeURIComponent(src));
      } catch {
        // not percent-encoded
      }
    }
    if (!image) return null;
    used.add(image.name);
    usedAll.set(image.name, image);
    return `/media/${image.name}`;
  });

  const result: ParseResult = {
    cards: [],
    media: [],
    skipped: 0,
    sounds: 0,
    missingImages: 0,
    tooLong: 0,
    imagesTooLarge,
  };
  for (const card of collection.cards) {
    const note = collection.notes.get(card.noteId);
    const notetype = note ? collection.notetypes.get(note.notetypeId) : undefined;
    const template = notetype ? (notetype.cloze ? notetype.templates[0] : notetype.templates[card.ord]) : undefined;
    if (!note || !notetype || !template || note.guid.length > maxGuidLength) {
      result.skipped += 1;
      continue;
    }
    if (note.fields.some((field) => field.length > maxFieldLength)) {
      result.skipped += 1;
      result.tooLong += 1;
      continue;
    }
    const fields = new Map(notetype.fields.map((name, index) => [name, note.fields[index] ?? '']));
    if (notetype.cloze && !hasCloze(fields, card.ord + 1)) {
      result.skipped += 1;
      continue;
    }
    const html = renderCard(template, fields, card.ord);
    used = new Set();
    const question = toMarkdown(html.question);
    const answer = toMarkdown(html.answer);
    result.sounds += question.notes.sounds + answer.notes.sounds;
    result.missingImages += question.notes.missingImages + answer.notes.missingImages;
    if (isBlankMarkdown(question.markdown)) {
      result.skipped += 1;
      continue;
    }
    if (question.markdown.length > limits.maxCardSideLength || answer.markdown.length > limits.maxCardSideLength) {
      result.skipped += 1;
      result.tooLong += 1;
      continue;
    }
    result.cards.push({
      deck: cleanDeckName(collection.decks.get(card.deckId) ?? 'Default'),
      guid: withoutNul(note.guid) || null,
      question: withoutNul(question.markdown),
      answer: withoutNul(answer.markdown),
      media: [...used],
    });
  }
  result.media = [...usedAll.values()];
  return result;
}

function hasCloze(fields: ReadonlyMap<string, string>, number: number): boolean {
  for (const value of fields.values()) if (clozeNumbers(value).has(number)) return true;
  return false;
}

/** A parse result with nothing in it yet: the counters a parse adds to. */
export function emptyParseResult(cards: ParseResult['cards'] = []): ParseResult {
  return { cards, media: [], skipped: 0, sounds: 0, missingImages: 0, tooLong: 0, imagesTooLarge: 0 };
}

async function parseText(bytes: Buffer, input: ParseInput): Promise<ParseResult> {
  const file = parseTextFile(decodeText(bytes), input.kind as 'txt' | 'csv' | 'tsv');
  if (file.notes.length > input.maxCards) throw new TooManyCardsError(file.notes.length);
  const toMarkdown = file.html ? createHtmlToMarkdown((src) => (/^https:\/\//i.test(src) ? src : null)) : null;
  const result = emptyParseResult();
  const deck = cleanDeckName(file.deck ?? input.defaultDeckName);
  for (const note of file.notes) {
    if ((note.guid?.length ?? 0) > maxGuidLength) {
      result.skipped += 1;
      continue;
    }
    let { question, answer } = note;
    if (toMarkdown) {
      const q = toMarkdown(question);
      const a = toMarkdown(answer);
      question = q.markdown;
      answer = a.markdown;
      result.sounds += q.notes.sounds + a.notes.sounds;
      result.missingImages += q.notes.missingImages + a.notes.missingImages;
    }
    if (isBlankMarkdown(question)) {
      result.skipped += 1;
      continue;
    }
    if (question.length > limits.maxCardSideLength || answer.length > limits.maxCardSideLength) {
      result.skipped += 1;
      result.tooLong += 1;
      continue;
    }
    result.cards.push({
      deck: note.deck ? cleanDeckName(note.deck) : deck,
      guid: note.guid ? withoutNul(note.guid) || null : null,
      question: withoutNul(question),
      answer: withoutNul(answer),
      media: [],
    });
  }
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
