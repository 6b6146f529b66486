import { messages } from '@flashcards/shared/messages';

/**
 * A signed-in page before its session or code has arrived: 'Loading...' (the spec's text) in the `main` landmark
 * above grey bars where the heading and the first lines will be, so the navigation and layout paint at once.
 */
export function PageSkeleton() {
  return (
    <main id="main" className="page" aria-busy="true">
      <div className="page-skeleton" role="status" aria-live="polite">
        <span className="page-skeleton__text">{messages.loading}</span>
        <span className="page-skeleton__bar page-skeleton__bar--heading" aria-hidden="true" />
        <span className="page-skeleton__bar" aria-hidden="true" />
        <span className="page-skeleton__bar page-skeleton__bar--short" aria-hidden="true" />
      </div>
    </main>
  );
}
