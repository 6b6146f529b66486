import { messages } from '@flashcards/shared/messages';
import { Link, useLocation } from 'react-router';
import { setAnalyticsConsent, useAnalyticsConsent } from './consent-store';

/**
 * Shown on every page but /privacy while the visitor has not chosen: one line at the end of the page (global.css),
 * the full explanation a link away. Analytics stay off until Accept, so nothing waits on the answer.
 */
export function CookieConsentBanner() {
  const consent = useAnalyticsConsent();
  const { pathname } = useLocation();
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
          onClick={() => setAnalyticsConsent(false)}
        >
          Decline
        </button>
        <button type="button" className="button button--small" onClick={() => setAnalyticsConsent(true)}>
          Accept
        </button>
      </div>
    </section>
  );
}
