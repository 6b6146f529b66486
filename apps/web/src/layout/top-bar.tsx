import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { appName } from '../lib/use-document-title';

/** The top bar both headers share: the main navigation with the logo, linking to `home`, then their own parts. */
export function TopBar({ home, children }: { home: string; children: ReactNode }) {
  return (
    <nav className="nav-bar__inner" aria-label="Main">
      <Link to={home} className="brand">
        <span className="brand__mark" aria-hidden="true">
          ⚡
        </span>
        {appName}
      </Link>
      {children}
    </nav>
  );
}
