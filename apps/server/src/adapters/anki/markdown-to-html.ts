import { createSafeMarkdown, escapeHtml } from '@flashcards/shared/card-html';

const mediaPath = /^\/media\/([A-Za-z0-9]+\.[a-z0-9]+)$/;

// The renderer is synchronous, so the media names of the card being converted are collected here.
let cardMedia: string[] = [];

const toHtml = createSafeMarkdown({
  breaks: true,
  imageSource: (href) => {
    const name = mediaPath.exec(href)?.[1];
    if (!name) return href;
    cardMedia.push(name);
    return name;
  },
});

/**
 * This app's card markdown as the HTML Anki stores in a field, under the same rules as the web's CSV export (raw
 * HTML shown as text, only safe link schemes): math `$$…$$` and `$…$` become Anki's MathJax `\[…\]` and `\(…\)`
 * (kept away from the markdown parser, which would eat the backslashes), and images stored here (`/media/NAME`)
 * point at the package's media file NAME.
 */
export function markdownToAnkiHtml(markdown: string): { html: string; media: string[] } {
  const math: string[] = [];
  const hold = (html: string) => {
    math.push(html);
    return `\uE000${math.length - 1}\uE000`;
  };
  const protectedText = markdown
    .replace(/\uE000/g, '')
    .replace(/\$\$([\s\S]+?)\$\$/g, (_all, tex: string) => hold(`\\[${escapeHtml(tex)}\\]`))
    .replace(
      /(^|[^\\$])\$([^$\n]+?)\$/g,
      (_all, before: string, tex: string) => before + hold(`\\(${escapeHtml(tex)}\\)`),
    );
  cardMedia = [];
  const html = toHtml(protectedText).replace(/\uE000(\d+)\uE000/g, (_all, index: string) => math[Number(index)] ?? '');
  return { html, media: cardMedia };
}
