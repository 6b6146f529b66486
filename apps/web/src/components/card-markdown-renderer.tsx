import 'katex/dist/katex.min.css';
import Markdown, { defaultUrlTransform } from 'react-markdown';
import rehypeKatex from 'rehype-katex';
import remarkMath from 'remark-math';

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
      rehypePlugins={[rehypeKatex]}
      urlTransform={(url) => defaultUrlTransform(url)}
      components={{ a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer" /> }}
    >
      {text}
    </Markdown>
  );
}
