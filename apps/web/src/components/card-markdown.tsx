import { Component, type ComponentType, lazy, type ReactNode, Suspense } from 'react';

type RendererComponent = ComponentType<{ text: string }>;

let rendererLoad: Promise<RendererComponent> | null = null;
/** The renderer once its chunk is in: later cards render with it at once, without suspending. */
let loadedRenderer: RendererComponent | null = null;
let renderAhead: ((text: string) => unknown) | null = null;

function loadRenderer(): Promise<RendererComponent> {
  rendererLoad ??= import('./card-markdown-renderer').then((module) => {
    loadedRenderer = module.CardMarkdownRenderer;
    renderAhead = module.renderCardText;
    return module.CardMarkdownRenderer;
  });
  return rendererLoad;
}

/**
 * Renders card texts before they are shown (markdown and math, kept by the renderer), so that showing them later
 * costs no parsing: the review page calls it for the next card while the browser is idle. Before the renderer's
 * chunk is in it does nothing; a text that fails to render is left to its card's own error boundary.
 */
export function renderCardTextsAhead(texts: readonly string[]): void {
  if (!renderAhead) return;
  for (const text of texts) {
    if (isPlainText(text)) continue;
    try {
      renderAhead(text);
    } catch {
      // Shown later, the card renders it again and falls back to plain text.
    }
  }
}

/** Fetches the markdown and math renderer ahead of the first card that needs it (the deck list calls it when idle). */
export function preloadCardRenderer(): void {
  loadRenderer().catch(() => {
    // A failed preload is tried again by the first card that needs the renderer.
    rendererLoad = null;
  });
}

const Renderer = lazy(() => loadRenderer().then((component) => ({ default: component })));

const plain = (text: string) => <p className="card-markdown__plain">{text}</p>;

/**
 * Text that markdown would show exactly as written, as one paragraph: one line, none of markdown's or math's marks,
 * no list, heading or code-block start. Such a card needs neither the parser nor KaTeX.
 */
export function isPlainText(text: string): boolean {
  return !/[*_`[\]<>#$\\|~&\n\r]/.test(text) && !/^(?:\s*(?:[-+*=]|\d+[.)])(?:\s|$)| {4}|\t)/.test(text);
}

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
  const Loaded = loadedRenderer;
  let content: ReactNode;
  if (isPlainText(text)) content = plain(text);
  else if (Loaded) content = <Loaded text={text} />;
  else {
    content = (
      <Suspense fallback={plain(text)}>
        <Renderer text={text} />
      </Suspense>
    );
  }
  return (
    <div className={className ? `card-markdown ${className}` : 'card-markdown'}>
      <CardErrorBoundary text={text}>{content}</CardErrorBoundary>
    </div>
  );
}
