import { TitledPage } from '../components/titled-page';
import { AssignDeckModal } from '../features/classes/assign-deck';
import { ImportModal } from '../features/interop/import-modal';
import { ReviewScreen } from '../features/review/review-screen';
import { ShareModal } from '../features/share/share-modal';

const dialogs = { ImportModal, ShareModal, AssignDeckModal };

/** /review (signed-in users only): the decks and their review sessions. */
export function ReviewPage() {
  return (
    <TitledPage title="Review" className="review-page">
      <ReviewScreen dialogs={dialogs} />
    </TitledPage>
  );
}
