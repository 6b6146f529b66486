import { decodeHTMLAttribute } from 'entities';
import { Marked, type Tokens } from 'marked';

/**
 * Card markdown as HTML for another program (Anki, a spreadsheet): the one set of rules both exports use, the web
 * app's CSV and the server's .apkg. Raw HTML typed into a card is shown as text, never passed on as markup, and
 * every link or image address goes through `safeUrl`. Everything here runs in time linear in the text.
 */

const allowedSchemes = /^(https?|ircs?|mailto|xmpp)$/i;

/**
 * The app's link rule: an address keeps its value only when it has no scheme or the scheme is http, https, irc,
 * ircs, mailto or xmpp; any other becomes empty. The rule looks at the address as the HTML reader will: character
 * references decoded (`java&#115;cript:` is `javascript:`), and the tabs, newlines and leading control characters or
 * spaces a browser drops, dropped.
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

export const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export interface SafeMarkdownOptions {
  /** Single line breaks become `<br>` (Anki fields), or stay spaces (CSV). */
  breaks: boolean;
  /** An image's address as written out, after `safeUrl` (the .apkg export names its media files here). */
  imageSource?: (href: string) => string;
}

/** Markdown to HTML under the export rules; a card side that is one plain paragraph stays without `<p>`. */
export function createSafeMarkdown(options: SafeMarkdownOptions): (markdown: string) => string {
  const markdown = new Marked({
    gfm: true,
    breaks: options.breaks,
    async: false,
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
        const src = options.imageSource ? options.imageSource(token.href) : token.href;
        return `<img src="${escapeHtml(src)}" alt="${escapeHtml(token.text)}"${title}>`;
      },
    },
    walkTokens: (token) => {
      if (token.type === 'link' || token.type === 'image') token.href = safeUrl(token.href);
    },
  });
  return (text) => unwrapSingleParagraph((markdown.parse(text) as string).trim());
}

function unwrapSingleParagraph(html: string): string {
  if (!html.startsWith('<p>') || !html.endsWith('</p>')) return html;
  const inner = html.slice(3, -4);
  return inner.includes('<p>') ? html : inner;
}

/**
 * The text of HTML without its tags (and without what `<script>` and `<style>` hold), as Anki's sort field and
 * duplicate checksum want it. One pass with indexOf: hostile text (thousands of `<` and no `>`) costs linear time.
 */
export function htmlToPlainText(html: string): string {
  const lower = html.toLowerCase();
  let text = '';
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf('<', at);
    if (open === -1) {
      text += html.slice(at);
      break;
    }
    text += html.slice(at, open);
    const close = html.indexOf('>', open + 1);
    if (close === -1) {
      text += html.slice(open);
      break;
    }
    const name = /^<(script|style)\b/.exec(lower.slice(open, open + 8))?.[1];
    if (name) {
      const end = lower.indexOf(`</${name}`, close + 1);
      const endClose = end === -1 ? -1 : lower.indexOf('>', end);
      at = endClose === -1 ? html.length : endClose + 1;
    } else {
      at = close + 1;
    }
  }
  return text.replace(/&nbsp;/g, ' ');
}
