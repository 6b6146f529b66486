import { messages } from '@flashcards/shared/messages';
import { StatsScreen } from '../features/stats/stats-screen';
import { appName, useDocumentTitle } from '../lib/use-document-title';

/** /stats (signed-in users only): progress and personal scheduling. */
export function StatsPage() {
  useDocumentTitle(`${messages.statsTitle} | ${appName}`);
  return (
    <main id="main" className="page">
      <StatsScreen />
    </main>
  );
}
