import { Link } from 'react-router';
import type { SiteLink } from './site-links';

/** A list of links, one an item: the app's own pages through the router, other sites in a new tab. */
export function LinkList({ className, links }: { className: string; links: readonly SiteLink[] }) {
  return (
    <ul className={className}>
      {links.map((link) => (
        <li key={link.href}>
          {link.external ? (
            <a href={link.href} target="_blank" rel="noopener noreferrer">
              {link.label}
            </a>
          ) : (
            <Link to={link.href}>{link.label}</Link>
          )}
        </li>
      ))}
    </ul>
  );
}
