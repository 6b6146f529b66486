import { TitledPage } from '../components/titled-page';
import { ReviewScreen } from '../features/review/review-screen';

/** /review (signed-in users only): the decks and their review sessions. */
export function ReviewPage() {
  return (
    <TitledPage title="Review" className="review-page">
      <ReviewScreen />
    </TitledPage>
  );
}
