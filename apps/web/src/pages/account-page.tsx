import { AccountScreen } from '../features/account/account-screen';
import { appName, useDocumentTitle } from '../lib/use-document-title';

/** /account (signed-in users only): plan, usage, purchases, help and logout. */
export function AccountPage() {
  useDocumentTitle(`Account | ${appName}`);
  return (
    <main id="main" className="page">
      <AccountScreen />
    </main>
  );
}
