import { ReviewScreen } from '../features/review/review-screen';
import { appName, useDocumentTitle } from '../lib/use-document-title';

/** /review (signed-in users only): the decks and their review sessions. */
export function ReviewPage() {
  useDocumentTitle(`Review | ${appName}`);
  return (
    <main id="main" className="page review-page">
      <h1>Review</h1>
      <ReviewScreen />
    </main>
  );
}
