import { QuizScreen } from '../features/quiz/quiz-screen';
import { appName, useDocumentTitle } from '../lib/use-document-title';

/** /quiz (signed-in users only): generate a quiz from a deck and study it. */
export function QuizPage() {
  useDocumentTitle(`Quiz | ${appName}`);
  return (
    <main id="main" className="page page--narrow">
      <h1>Quiz</h1>
      <QuizScreen />
    </main>
  );
}
