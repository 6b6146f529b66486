import { appName, useDocumentTitle } from '../lib/use-document-title';

/** /quiz (signed-in users only). Its screen arrives with a later web app issue; the route and guard are real. */
export function QuizPage() {
  useDocumentTitle(`Quiz | ${appName}`);
  return (
    <main id="main" className="page page--narrow">
      <h1>Quiz</h1>
    </main>
  );
}
