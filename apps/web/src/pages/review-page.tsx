import { appName, useDocumentTitle } from '../lib/use-document-title';

/** /review (signed-in users only). Its screen arrives with a later web app issue; the route and guard are real. */
export function ReviewPage() {
  useDocumentTitle(`Review | ${appName}`);
  return (
    <main id="main" className="page page--narrow">
      <h1>Review</h1>
    </main>
  );
}
