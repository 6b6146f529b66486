import { CreateScreen } from '../features/create/create-screen';
import { appName, useDocumentTitle } from '../lib/use-document-title';

/** /create (signed-in users only): generate flashcards from text or a file and save them to a deck. */
export function CreatePage() {
  useDocumentTitle(`Create Cards | ${appName}`);
  return <CreateScreen />;
}
