import TurndownService from 'turndown';

export interface ConversionNotes {
  /** Sounds and videos left out (`[sound:…]`, `<audio>`, `<video>`). */
  sounds: number;
  /** Images whose file was not in the package (or was not an image). */
  missingImages: number;
}

/**
 * Turns the HTML of a rendered Anki card into this app's markdown with turndown: Anki math `\(…\)` and `\[…\]`
 * becomes `$…$` and `$$…$$`, images point at the stored media (`resolveImage` gives the URL, or null when the file
 * is missing), sounds and videos are dropped and counted.
 */
export function createHtmlToMarkdown(resolveImage: (src: string) => string | null) {
  const turndown = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
  });
  // `$` starts math in this app's markdown: a literal one is escaped.
  const escapeMarkdown = turndown.escape.bind(turndown);
  // Brackets are left as they are (a cloze blank reads `[...]`) unless they could make a link.
  turndown.escape = (text: string) =>
    escapeMarkdown(text)
      .replace(/\$/g, '\\$')
      .replace(/\\([[\]])/g, '$1')
      .replace(/\]([([:])/g, '\\]$1');
  turndown.addRule('listItem', {
    filter: 'li',
    replacement: (content, node, options) => {
      const text = content.replace(/^\n+/, '').replace(/\n+$/, '\n').replace(/\n/gm, '\n  ');
      const parent = node.parentNode as (typeof node & { children: ArrayLike<unknown> }) | null;
      let prefix = `${options.bulletListMarker} `;
      if (parent?.nodeName === 'OL') {
        const start = Number(
          (parent as unknown as { getAttribute(name: string): string | null }).getAttribute('start'),
        );
        const index = Array.prototype.indexOf.call(parent.children, node);
        prefix = `${(Number.isFinite(start) && start > 0 ? start : 1) + index}. `;
      }
      return prefix + text + (node.nextSibling && !/\n$/.test(text) ? '\n' : '');
    },
  });
  turndown.remove(['script', 'style', 'head', 'title', 'audio', 'video', 'object', 'iframe', 'input']);
  turndown.addRule('math', {
    filter: (node) => node.nodeName === 'SPAN' && node.getAttribute('data-anki-math') !== null,
    replacement: (_content, node) => {
      const element = node as TurndownService.Node & { getAttribute(name: string): string | null };
      const tex = (element.textContent ?? '').trim();
      return element.getAttribute('data-anki-math') === 'block' ? `$$${tex}$$` : `$${tex}$`;
    },
  });
  let notes: ConversionNotes = { sounds: 0, missingImages: 0 };
  turndown.addRule('image', {
    filter: 'img',
    replacement: (_content, node) => {
      const element = node as TurndownService.Node & { getAttribute(name: string): string | null };
      const src = element.getAttribute('src') ?? '';
      const url = resolveImage(src);
      if (!url) {
        notes.missingImages += 1;
        return '';
      }
      const alt = (element.getAttribute('alt') ?? '').replace(/[[\]\\]/g, '');
      return `![${alt}](${url})`;
    },
  });

  return (html: string): { markdown: string; notes: ConversionNotes } => {
    notes = { sounds: 0, missingImages: 0 };
    let source = html.replace(/\[sound:[^\]]*\]/g, () => {
      notes.sounds += 1;
      return '';
    });
    notes.sounds += (source.match(/<(audio|video)\b/gi) ?? []).length;
    // Plain text needs no HTML parser: escaping markdown is all.
    if (!/[<&]|\\[([]/.test(source)) {
      return { markdown: turndown.escape(source.replace(/\s+/g, ' ').trim()), notes };
    }
    source = source
      .replace(/\\\[([\s\S]*?)\\\]/g, (_all, tex: string) => `<span data-anki-math="block">${tex}</span>`)
      .replace(/\\\(([\s\S]*?)\\\)/g, (_all, tex: string) => `<span data-anki-math="inline">${tex}</span>`);
    const markdown = turndown.turndown(source).trim();
    return { markdown, notes };
  };
}

/** True when the markdown shows nothing: no text, no image. */
export function isBlankMarkdown(markdown: string): boolean {
  return markdown.replace(/\\/g, '').trim() === '';
}
