import { classMessages } from '@flashcards/shared/class-messages';
import { useParams } from 'react-router';
import { JoinScreen } from '../features/classes/join-screen';
import { SiteLayout } from '../layout/site-layout';
import { appName, useDocumentTitle } from '../lib/use-document-title';

/** /join/{code}: open to visitors too, who sign in first and come back here to join (as /share/{code} does). */
export function JoinPage() {
  const code = useParams().joinCode;
  useDocumentTitle(`${classMessages.joinPageTitle} | ${appName}`);
  return (
    <SiteLayout>
      <main id="main" className="page page--narrow">
        <h1>{classMessages.joinPageTitle}</h1>
        <JoinScreen code={code} />
      </main>
    </SiteLayout>
  );
}
