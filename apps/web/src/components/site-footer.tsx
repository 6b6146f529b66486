import { messages } from '@flashcards/shared/messages';
import { Link } from 'react-router';
import { socialLink } from './site-links';

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <p>{messages.footerLine}</p>
      <ul className="site-footer__links">
        <li>
          <a href={socialLink.href} target="_blank" rel="noopener noreferrer">
            {socialLink.label}
          </a>
        </li>
        <li>
          <Link to="/privacy">Privacy policy</Link>
        </li>
        <li>
          <Link to="/privacy-settings">Privacy settings</Link>
        </li>
      </ul>
    </footer>
  );
}
