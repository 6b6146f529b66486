import { Component, lazy, type ReactNode, Suspense } from 'react';

const Renderer = lazy(() =>
  import('./card-markdown-renderer').then((module) => ({ default: module.CardMarkdownRenderer })),
);

const plain = (text: string) => <p className="card-markdown__plain">{text}</p>;

interface BoundaryState {
  /** The text that failed to render, or null. */
  failedText: string | null;
  text: string;
}

/** One card's render failure (a text the parser or KaTeX cannot handle) shows that card as plain text, nothing more. */
class CardErrorBoundary extends Component<{ text: string; children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { failedText: null, text: this.props.text };

  static getDerivedStateFromProps(props: { text: string }, state: BoundaryState): Partial<BoundaryState> | null {
    // Another text gets its own chance to render.
    return props.text === state.text ? null : { text: props.text, failedText: null };
  }

  static getDerivedStateFromError(): Partial<BoundaryState> {
    return { failedText: '' };
  }

  override render(): ReactNode {
    return this.state.failedText !== null ? plain(this.props.text) : this.props.children;
  }
}

/**
 * Renders a card side (markdown with math). The renderer and KaTeX load on first use; until then the plain text
 * shows, so nothing jumps or goes blank. A card that fails to render shows as plain text (CardErrorBoundary), and
 * its content stays inside its box (.card-markdown in global.css: paint containment).
 */
export function CardMarkdown({ text, className }: { text: string; className?: string }) {
  return (
    <div className={className ? `card-markdown ${className}` : 'card-markdown'}>
      <CardErrorBoundary text={text}>
        <Suspense fallback={plain(text)}>
          <Renderer text={text} />
        </Suspense>
      </CardErrorBoundary>
    </div>
  );
}
