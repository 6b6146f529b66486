import { classMessages } from '@flashcards/shared/class-messages';
import { TitledPage } from '../components/titled-page';
import { ClassesScreen } from '../features/classes/class-list';

/** /classes (signed-in users only): the classes the user teaches or attends; create one, join one. */
export function ClassesPage() {
  return (
    <TitledPage title={classMessages.pageTitle} className="classes-page">
      <ClassesScreen />
    </TitledPage>
  );
}
