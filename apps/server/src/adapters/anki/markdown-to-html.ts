import { Marked } from 'marked';

const marked = new Marked({ gfm: true, breaks: true, async: false });

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * This app's card markdown as the HTML Anki stores in a field: math `$$…$$` and `$…$` become Anki's MathJax
 * `\[…\]` and `\(…\)` (kept away from the markdown parser, which would eat the backslashes), and images stored
 * here (`/media/NAME`) point at the package's media file NAME.
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
  let html = (marked.parse(protectedText) as string).trim();
  html = html.replace(/\uE000(\d+)\uE000/g, (_all, index: string) => math[Number(index)] ?? '');
  const media: string[] = [];
  html = html.replace(/(<img[^>]*\bsrc=")\/media\/([A-Za-z0-9]+\.[a-z0-9]+)"/g, (_all, head: string, name: string) => {
    media.push(name);
    return `${head}${name}"`;
  });
  // A single paragraph needs no <p>: Anki's own fields are plain.
  const single = /^<p>([\s\S]*)<\/p>$/.exec(html);
  if (single && !single[1]?.includes('<p>')) html = single[1] ?? '';
  return { html, media };
}
