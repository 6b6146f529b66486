import { useParams } from 'react-router';
import { ClassScreen } from '../features/classes/class-screen';

/** /classes/{id} (signed-in users only): one class, as its teacher or as a student sees it; titled by the class. */
export function ClassPage() {
  const classId = useParams().classId ?? '';
  return (
    <main id="main" className="page classes-page">
      <ClassScreen classId={classId} />
    </main>
  );
}
