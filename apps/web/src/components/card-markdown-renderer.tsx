import 'katex/dist/katex.min.css';
import './card-markdown-renderer.css';
import type { ReactElement } from 'react';
import Markdown, { defaultUrlTransform } from 'react-markdown';
import rehypeKatex from 'rehype-katex';
import remarkMath from 'remark-math';

/**
 * KaTeX limits: sizes a card gives (\rule, \kern, \raisebox, \hspace…) are capped at 10 em, macro expansion at 100
 * steps, and `trust` stays off (no \href, \url, \includegraphics, \html…).
 */
export const katexOptions = { maxSize: 10, maxExpand: 100, trust: false, strict: 'ignore' } as const;

/** Deeper block nesting than this (`>` quotes, list indents) is flattened before parsing. */
export const MAX_BLOCK_DEPTH = 16;

/**
 * Caps how deeply a line's leading block quotes nest: 4,000 nested `>` would otherwise recurse through the
 * markdown parser and React until the stack runs out. The text after the markers stays, at depth MAX_BLOCK_DEPTH.
 */
export function limitNesting(text: string): string {
  return text.replace(/^(?:[ \t]*>){17,}[ \t]?/gm, `${'>'.repeat(MAX_BLOCK_DEPTH)} `);
}

/** Rendered card sides kept for reuse, the latest last: the review page renders the next card ahead of its turn. */
const rendered = new Map<string, ReactElement>();
const KEPT_RENDERS = 64;

/**
 * Card text as markdown with math ($…$ and $$…$$). Links and images keep their address only when it has no scheme
 * or the scheme is http, https, irc, ircs, mailto or xmpp: react-markdown's default
 * URL rule is exactly that, and any other address becomes empty. Raw HTML in the text is not rendered.
 * react-markdown's `Markdown` uses no hooks, so its element is made once per text and kept: a card rendered ahead
 * (`renderCardText` when the browser is idle) costs its turn no parsing and no KaTeX.
 */
export function renderCardText(text: string): ReactElement {
  const kept = rendered.get(text);
  if (kept) return kept;
  const element = Markdown({
    remarkPlugins: [remarkMath],
    rehypePlugins: [[rehypeKatex, katexOptions]],
    urlTransform: (url) => defaultUrlTransform(url),
    components: { a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer" /> },
    children: limitNesting(text),
  });
  rendered.set(text, element);
  const oldest = rendered.keys().next().value;
  if (rendered.size > KEPT_RENDERS && oldest !== undefined) rendered.delete(oldest);
  return element;
}

/** Loaded lazily through CardMarkdown, so KaTeX and the markdown parser stay out of the first page load. */
export function CardMarkdownRenderer({ text }: { text: string }) {
  return renderCardText(text);
}
