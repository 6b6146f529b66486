import { messages } from '@flashcards/shared/messages';
import { TitledPage } from '../components/titled-page';
import { StatsScreen } from '../features/stats/stats-screen';

/** /stats (signed-in users only): progress and personal scheduling. */
export function StatsPage() {
  return (
    <TitledPage title={messages.statsTitle} heading={false}>
      <StatsScreen />
    </TitledPage>
  );
}
