import { lazy, Suspense } from 'react';

const Renderer = lazy(() =>
  import('./card-markdown-renderer').then((module) => ({ default: module.CardMarkdownRenderer })),
);

/**
 * Renders a card side (markdown with math). The renderer and KaTeX load on first use; until then the plain text
 * shows, so nothing jumps or goes blank.
 */
export function CardMarkdown({ text, className }: { text: string; className?: string }) {
  return (
    <div className={className ? `card-markdown ${className}` : 'card-markdown'}>
      <Suspense fallback={<p className="card-markdown__plain">{text}</p>}>
        <Renderer text={text} />
      </Suspense>
    </div>
  );
}
