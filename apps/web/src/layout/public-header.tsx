import { Link } from 'react-router';
import { BestForDropdown } from '../features/marketing/best-for-dropdown';
import { TopBar } from './top-bar';

/** The visitor's top bar: logo, the 'Best for?' menu and a way to sign in. */
export function PublicHeader() {
  return (
    <header className="nav-bar">
      <TopBar home="/login">
        <div className="public-header__actions">
          <BestForDropdown />
          <Link to="/login" className="button button--small">
            Log in
          </Link>
        </div>
      </TopBar>
    </header>
  );
}
