import { useAuth } from '../features/auth/auth-context';
import { appName, useDocumentTitle } from '../lib/use-document-title';

/** /account (signed-in users only). The full account screen arrives with a later issue; logout works now. */
export function AccountPage() {
  useDocumentTitle(`Account | ${appName}`);
  const { user, logout } = useAuth();
  return (
    <main id="main" className="page page--narrow">
      <h1>Account</h1>
      <p>Welcome, {user?.name || user?.email}</p>
      <button type="button" className="button button--secondary" onClick={logout}>
        Logout
      </button>
    </main>
  );
}
