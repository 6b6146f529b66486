import { appName, useDocumentTitle } from '../lib/use-document-title';

/** /create (signed-in users only). Its screen arrives with a later web app issue; the route and guard are real. */
export function CreatePage() {
  useDocumentTitle(`Create Cards | ${appName}`);
  return (
    <main id="main" className="page page--narrow">
      <h1>Create Cards</h1>
    </main>
  );
}
