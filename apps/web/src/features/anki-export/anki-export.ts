import { decodeHTMLAttribute } from 'entities';
import { Marked, type Tokens } from 'marked';
import Papa from 'papaparse';

/**
 * Anki export, made in the browser: a CSV file of two columns, question and answer,
 * one row per card and no header row (Anki would import a header as a note). Card text is markdown; Anki shows
 * HTML, so each side is converted to basic HTML. Loaded lazily, only when a person exports.
 */

export interface AnkiCard {
  question: string;
  answer: string;
}

const allowedSchemes = /^(https?|ircs?|mailto|xmpp)$/i;

/**
 * The app's link rule, applied to the exported HTML too: an address keeps its value
 * only when it has no scheme or the scheme is http, https, irc, ircs, mailto or xmpp; any other becomes empty.
 * The rule looks at the address as the HTML reader will: character references decoded (`java&#115;cript:` is
 * `javascript:`), and the tabs, newlines and leading control characters or spaces a browser drops, dropped.
 */
export function safeUrl(url: string): string {
  const stripped = decodeHTMLAttribute(url).replace(/[\t\n\r]/g, '');
  let start = 0;
  while (start < stripped.length && stripped.charCodeAt(start) <= 0x20) start += 1;
  const decoded = stripped.slice(start);
  const colon = decoded.indexOf(':');
  const firstSeparator = decoded.search(/[/?#]/);
  if (colon === -1 || (firstSeparator !== -1 && colon > firstSeparator)) return decoded;
  return allowedSchemes.test(decoded.slice(0, colon)) ? decoded : '';
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * A cell starting with = + - @ (or a tab or carriage return) is a formula when the file is opened in a spreadsheet.
 * The cells are HTML for Anki, so such a cell starts with an empty `<span></span>` instead: a spreadsheet sees text,
 * Anki shows the card exactly as before (an apostrophe, the spreadsheet convention, would show in Anki).
 */
const formulaStart = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

export function neutraliseFormula(cell: string): string {
  return formulaStart.test(cell) ? `<span></span>${cell}` : cell;
}

const markdown = new Marked({
  gfm: true,
  async: false,
  // Raw HTML typed into a card is shown as text, as in the app, never passed on as markup.
  renderer: {
    html: (token: Tokens.HTML | Tokens.Tag) => escapeHtml(token.text),
    // Addresses (already decoded and checked by safeUrl) are written with every & < > " escaped, so the reader
    // decodes exactly the address that was checked, never a reference hidden in it.
    link(token: Tokens.Link) {
      const title = token.title ? ` title="${escapeHtml(token.title)}"` : '';
      return `<a href="${escapeHtml(token.href)}"${title}>${this.parser.parseInline(token.tokens)}</a>`;
    },
    image(token: Tokens.Image) {
      const title = token.title ? ` title="${escapeHtml(token.title)}"` : '';
      return `<img src="${escapeHtml(token.href)}" alt="${escapeHtml(token.text)}"${title}>`;
    },
  },
  walkTokens: (token) => {
    if (token.type === 'link' || token.type === 'image') token.href = safeUrl(token.href);
  },
});

/** Markdown to basic HTML; a card side that is one plain paragraph stays without the <p> wrapper. */
export function markdownToBasicHtml(text: string): string {
  const html = (markdown.parse(text) as string).trim();
  const single = /^<p>([\s\S]*)<\/p>$/.exec(html);
  return single?.[1] !== undefined && !single[1].includes('<p>') ? single[1] : html;
}

/** The CSV text: one row per card, two columns, quoted where needed, CRLF line ends. */
export function buildAnkiCsv(cards: readonly AnkiCard[]): string {
  return Papa.unparse(
    cards.map((card) => [
      neutraliseFormula(markdownToBasicHtml(card.question)),
      neutraliseFormula(markdownToBasicHtml(card.answer)),
    ]),
    { newline: '\r\n', quotes: false },
  );
}

/** The file name: the deck name followed by _Anki_Export.csv. */
export function ankiFileName(deckName: string): string {
  return `${deckName}_Anki_Export.csv`;
}
