import type { GeneratedCard, GenerationProgress } from '@flashcards/shared/api-types';
import { generationCosts, limits } from '@flashcards/shared/limits';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { ApiRequestError } from '../../lib/api-client';

/** How long the "cards saved" banner stays. */
export const saveBannerMs = 5000;

/** File types the picker takes: extension and the MIME types a browser may report. */
const fileTypes: Record<string, readonly string[]> = {
  pdf: ['application/pdf'],
  txt: ['text/plain'],
  docx: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  doc: ['application/msword'],
  pptx: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'],
  jpg: ['image/jpeg'],
  jpeg: ['image/jpeg'],
  png: ['image/png'],
};

/** Browsers report these when they do not know a file's type; the extension then decides. */
const unknownMimeTypes = new Set(['', 'application/octet-stream']);

/** What the file picker offers. */
export const acceptedFiles = Object.keys(fileTypes)
  .map((extension) => `.${extension}`)
  .join(',');

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/**
 * The message for a file the page cannot take, or null when it is fine: at most 10 MB, and one of PDF, TXT, DOCX,
 * DOC, PPTX, JPG, PNG by extension with a matching (or unknown) MIME type. A .pptx whose MIME type does not match
 * gets the "unknown MIME type" variant.
 */
export function fileProblem(file: Pick<File, 'name' | 'size' | 'type'>): string | null {
  if (file.size > limits.maxFileBytes) return messages.fileTooLarge;
  const extension = extensionOf(file.name);
  const mimeTypes = fileTypes[extension];
  const type = file.type.toLowerCase();
  if (mimeTypes && (mimeTypes.includes(type) || unknownMimeTypes.has(type))) return null;
  return extension === 'pptx' ? messages.invalidFileTypePptx : messages.invalidFileType;
}

/** Generation cost: 1 for text only, 3 for an image or document file, 5 for PPTX. */
export function generationCost(file: Pick<File, 'name'> | null): number {
  if (!file) return generationCosts.text;
  return extensionOf(file.name) === 'pptx' ? generationCosts.pptx : generationCosts.file;
}

/** The text shown for a failed generation. */
export function generationErrorMessage(error: unknown): string {
  if (!(error instanceof ApiRequestError)) return messages.generationFailed;
  if (error.kind === 'timeout') return messages.generationTimeout;
  if (error.kind === 'network') return messages.noResponse;
  if (error.code === 'insufficient_quota') return messages.insufficientQuota;
  return fillMessage(messages.generationServerError, { detail: error.detail || messages.generationFailed });
}

/**
 * The sentence under the progress bar: pages or slides read (the file's kind from its name), then cards written.
 */
export function progressSentence(progress: GenerationProgress | null, fileName: string | null): string {
  if (!progress) return messages.generationStarting;
  if (progress.stage === 'generating') return fillMessage(messages.generationWritingCards, { count: progress.done });
  const extension = fileName ? extensionOf(fileName) : '';
  const values = { done: progress.done, total: progress.total };
  if (extension === 'pdf' && progress.total > 1) return fillMessage(messages.generationReadingPage, values);
  if (extension === 'pptx' && progress.total > 1) return fillMessage(messages.generationReadingSlide, values);
  return messages.generationReadingFile;
}

const cardKey = (card: GeneratedCard) => `${card.question}\u0000${card.answer}`;

/**
 * The `done` list replacing the streamed one: each final card that was streamed keeps what the user did with it
 * meanwhile (its edit, its selection); the others come selected, as every generated card does.
 * `streamed[i]` is the card as it arrived, `current[i]` the same card now (maybe edited), `selected` positions
 * in `current`.
 */
/** A generated card starts selected unless its quote was not found or it repeats a card of the deck. */
export function startsSelected(card: GeneratedCard): boolean {
  return card.verified !== false && !card.duplicate_of;
}

export function mergeFinalCards(
  final: GeneratedCard[],
  streamed: GeneratedCard[],
  current: GeneratedCard[],
  selected: number[],
): { cards: GeneratedCard[]; selected: number[] } {
  const choices = new Map<string, { card: GeneratedCard; selected: boolean }>();
  streamed.forEach((card, index) => {
    const now = current[index];
    if (now) choices.set(cardKey(card), { card: now, selected: selected.includes(index) });
  });
  const cards: GeneratedCard[] = [];
  const chosen: number[] = [];
  for (const card of final) {
    const choice = choices.get(cardKey(card));
    cards.push(choice ? choice.card : card);
    if (choice ? choice.selected : startsSelected(card)) chosen.push(cards.length - 1);
  }
  return { cards, selected: chosen };
}

/** A suggested deck name stays this short: a title, not a sentence. */
export const suggestedDeckNameMax = 60;

/** Shortens to `max` characters at a word boundary where there is one, with an ellipsis. */
function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:!?-]+$/, '')}…`;
}

/** A deck name for cards made from a file: its name without the extension, separators read as spaces. */
export function deckNameFromFile(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  const base = (dot > 0 ? fileName.slice(0, dot) : fileName).replace(/[_\s]+/g, ' ').trim();
  return shorten(base, suggestedDeckNameMax);
}

/**
 * A deck name for cards made from pasted text: its first heading, else its first line, without markdown marks and
 * shortened; empty when the text has no words.
 */
export function deckNameFromText(text: string): string {
  const lines = text.split('\n', 200).map((line) => line.trim());
  const heading = lines.find((line) => /^#{1,6}\s+\S/.test(line));
  const first = heading ?? lines.find((line) => /[\p{L}\p{N}]/u.test(line)) ?? '';
  const plain = first
    .replace(/^#{1,6}\s+/, '')
    .replace(/^(?:[-*+>]|\d+[.)])\s+/, '')
    .replace(/[*_`~]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return shorten(plain, suggestedDeckNameMax);
}

/** The banner after a save: how many cards went into the deck, and how many were skipped as already in it. */
export function savedSentence(deck: string, saved: number, skipped: number): string {
  const done =
    saved === 1 ? fillMessage(messages.cardSaved, { deck }) : fillMessage(messages.cardsSaved, { count: saved, deck });
  if (!skipped) return done;
  const left =
    skipped === 1 ? messages.savedSkippedDuplicate : fillMessage(messages.savedSkippedDuplicates, { count: skipped });
  return `${done} ${left}`;
}
