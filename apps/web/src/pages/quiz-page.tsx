import { TitledPage } from '../components/titled-page';
import { QuizScreen } from '../features/quiz/quiz-screen';

/** /quiz (signed-in users only): generate a quiz from a deck and study it. */
export function QuizPage() {
  return (
    <TitledPage title="Quiz" className="page--narrow">
      <QuizScreen />
    </TitledPage>
  );
}
