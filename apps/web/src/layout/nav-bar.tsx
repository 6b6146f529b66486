import { useCallback, useEffect, useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { OfflineStatus } from '../components/offline-status';
import { FeedbackModal } from '../features/feedback/feedback-modal';
import { TopBar } from './top-bar';

const links = [
  { to: '/review', label: 'Review' },
  { to: '/create', label: 'Create Cards' },
  { to: '/quiz', label: 'Quiz' },
  { to: '/stats', label: 'Statistics' },
  { to: '/my-classes', label: 'Classes' },
  { to: '/account', label: 'Account' },
] as const;

/** The signed-in top bar: logo and links, Feedback, and a menu toggle on phones. */
export function NavBar() {
  const [menuOpen, setMenuOpen] = useState(false);
  const [feedbackOpen, setFeedbackOpen] = useState(false);
  const { pathname } = useLocation();
  const closeFeedback = useCallback(() => setFeedbackOpen(false), []);

  // Following a link closes the phone menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every change of page.
  useEffect(() => setMenuOpen(false), [pathname]);

  return (
    <header className="nav-bar">
      <TopBar home="/account">
        <button
          type="button"
          className="nav-bar__toggle"
          aria-expanded={menuOpen}
          aria-controls="main-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span className="visually-hidden">{menuOpen ? 'Close menu' : 'Open menu'}</span>
          <span aria-hidden="true">☰</span>
        </button>
        <div id="main-menu" className={`nav-bar__menu${menuOpen ? ' nav-bar__menu--open' : ''}`}>
          <ul className="nav-bar__links">
            {links.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} className="nav-bar__link">
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
          <button type="button" className="button button--secondary" onClick={() => setFeedbackOpen(true)}>
            Feedback
          </button>
        </div>
      </TopBar>
      <OfflineStatus />
      {feedbackOpen && <FeedbackModal onClose={closeFeedback} />}
    </header>
  );
}
