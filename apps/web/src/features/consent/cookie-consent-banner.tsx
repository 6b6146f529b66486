import { messages } from '@flashcards/shared/messages';
import { Link, useLocation } from 'react-router';
import { setAnalyticsConsent, useAnalyticsConsent } from './consent-store';

/** Shown on every page but /privacy while the visitor has not chosen. */
export function CookieConsentBanner() {
  const consent = useAnalyticsConsent();
  const { pathname } = useLocation();
  if (consent !== null || pathname === '/privacy') return null;
  return (
    <section className="consent-banner" aria-label="Cookie consent">
      <p>
        {messages.cookieBannerText} <Link to="/privacy">Privacy policy</Link>
      </p>
      <div className="consent-banner__actions">
        <button type="button" className="button button--secondary" onClick={() => setAnalyticsConsent(false)}>
          Decline
        </button>
        <button type="button" className="button" onClick={() => setAnalyticsConsent(true)}>
          Accept
        </button>
      </div>
    </section>
  );
}
