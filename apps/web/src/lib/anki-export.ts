import { createSafeMarkdown } from '@flashcards/shared/card-html';
import Papa from 'papaparse';

export { safeUrl } from '@flashcards/shared/card-html';

/**
 * Anki export, made in the browser: a CSV file of two columns, question and answer,
 * one row per card and no header row (Anki would import a header as a note). Card text is markdown; Anki shows
 * HTML, so each side is converted to basic HTML. Loaded lazily, only when a person exports.
 */

export interface AnkiCard {
  question: string;
  answer: string;
  /** The card's images (`/media/{name}` URLs): added to the answer as `<img>` tags. */
  images?: readonly string[] | undefined;
}

/**
 * A cell starting with = + - @ (or a tab or carriage return) is a formula when the file is opened in a spreadsheet.
 * The cells are HTML for Anki, so such a cell starts with an empty `<span></span>` instead: a spreadsheet sees text,
 * Anki shows the card exactly as before (an apostrophe, the spreadsheet convention, would show in Anki).
 */
const formulaStart = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

export function neutraliseFormula(cell: string): string {
  return formulaStart.test(cell) ? `<span></span>${cell}` : cell;
}

/** Markdown to basic HTML under the exports' shared rules (raw HTML as text, unsafe addresses emptied). */
export const markdownToBasicHtml = createSafeMarkdown({ breaks: false });

const mediaUrl = /^\/media\/[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * A card's images as `<img>` tags with the full address of this app's copy (`origin` + `/media/{name}`): a CSV
 * carries no files, and Anki shows an image from its address as long as the app serves it.
 */
export function imageTags(images: readonly string[] | undefined, origin: string): string {
  return (images ?? [])
    .filter((url) => mediaUrl.test(url))
    .map((url) => `<img src="${origin}${url}">`)
    .join('');
}

/**
 * The CSV text: one row per card, two columns, quoted where needed, CRLF line ends; a card's images at the end of
 * its answer (after a `<br>`), addressed from `origin`.
 */
export function buildAnkiCsv(cards: readonly AnkiCard[], origin = ''): string {
  return Papa.unparse(
    cards.map((card) => {
      const answer = markdownToBasicHtml(card.answer);
      const images = imageTags(card.images, origin);
      return [
        neutraliseFormula(markdownToBasicHtml(card.question)),
        neutraliseFormula(images ? (answer ? `${answer}<br>${images}` : images) : answer),
      ];
    }),
    { newline: '\r\n', quotes: false },
  );
}

/** The file name: the deck name followed by _Anki_Export.csv. */
export function ankiFileName(deckName: string): string {
  return `${deckName}_Anki_Export.csv`;
}
