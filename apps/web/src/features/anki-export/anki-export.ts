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
 */
export function safeUrl(url: string): string {
  const colon = url.indexOf(':');
  const firstSeparator = url.search(/[/?#]/);
  if (colon === -1 || (firstSeparator !== -1 && colon > firstSeparator)) return url;
  return allowedSchemes.test(url.slice(0, colon)) ? url : '';
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const markdown = new Marked({
  gfm: true,
  async: false,
  // Raw HTML typed into a card is shown as text, as in the app, never passed on as markup.
  renderer: {
    html: (token: Tokens.HTML | Tokens.Tag) => escapeHtml(token.text),
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
    cards.map((card) => [markdownToBasicHtml(card.question), markdownToBasicHtml(card.answer)]),
    { newline: '\r\n', quotes: false },
  );
}

/** The file name: the deck name followed by _Anki_Export.csv. */
export function ankiFileName(deckName: string): string {
  return `${deckName}_Anki_Export.csv`;
}
