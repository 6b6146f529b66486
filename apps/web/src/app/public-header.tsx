import { Link } from 'react-router';
import { BestForDropdown } from '../features/marketing/best-for-dropdown';
import { appName } from '../lib/use-document-title';

/** The visitor's top bar: logo, the 'Best for?' menu and a way to sign in. */
export function PublicHeader() {
  return (
    <header className="nav-bar">
      <nav className="nav-bar__inner" aria-label="Main">
        <Link to="/login" className="brand">
          <span className="brand__mark" aria-hidden="true">
            ⚡
          </span>
          {appName}
        </Link>
        <div className="public-header__actions">
          <BestForDropdown />
          <Link to="/login" className="button button--small">
            Log in
          </Link>
        </div>
      </nav>
    </header>
  );
}
