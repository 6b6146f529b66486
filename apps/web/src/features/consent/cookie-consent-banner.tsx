import { messages } from '@flashcards/shared/messages';
import { Link, useLocation } from 'react-router';
import { useHydrated } from '../../lib/use-hydrated';
import { setAnalyticsConsent, useAnalyticsConsent } from './consent-store';

/**
 * Shown on every page but /privacy while the visitor has not chosen: one line at the end of the page (global.css),
 * the full explanation a link away. Analytics stay off until Accept, so nothing waits on the answer.
 */
export function CookieConsentBanner() {
  const consent = useAnalyticsConsent();
  const { pathname } = useLocation();
  // A choice made before hydration would be lost: the buttons wait for the app's code.
  const ready = useHydrated();
  if (consent !== null || pathname === '/privacy') return null;
  return (
    <section className="consent-banner" aria-label="Cookie consent">
      <p>
        {messages.cookieBannerLine} <Link to="/privacy">{messages.cookieBannerLink}</Link>
      </p>
      <div className="consent-banner__actions">
        <button
          type="button"
          className="button button--small button--secondary"
          disabled={!ready}
          onClick={() => setAnalyticsConsent(false)}
        >
          Decline
        </button>
        <button
          type="button"
          className="button button--small"
          disabled={!ready}
          onClick={() => setAnalyticsConsent(true)}
        >
          Accept
        </button>
      </div>
    </section>
  );
}
