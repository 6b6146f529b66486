import 'katex/dist/katex.min.css';
import './card-markdown-renderer.css';
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

/**
 * Card text as markdown with math ($…$ and $$…$$). Links and images keep their address only when it has no scheme
 * or the scheme is http, https, irc, ircs, mailto or xmpp: react-markdown's default
 * URL rule is exactly that, and any other address becomes empty. Raw HTML in the text is not rendered.
 * Loaded lazily through CardMarkdown, so KaTeX and the markdown parser stay out of the first page load.
 */
export function CardMarkdownRenderer({ text }: { text: string }) {
  return (
    <Markdown
      remarkPlugins={[remarkMath]}
      rehypePlugins={[[rehypeKatex, katexOptions]]}
      urlTransform={(url) => defaultUrlTransform(url)}
      components={{ a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer" /> }}
    >
      {limitNesting(text)}
    </Markdown>
  );
}
