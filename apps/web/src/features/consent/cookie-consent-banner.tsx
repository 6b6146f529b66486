import { messages } from '@flashcards/shared/messages';
import { useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useHydrated } from '../../lib/use-hydrated';
import { setAnalyticsConsent, useAnalyticsConsent } from './consent-store';

/**
 * Shown on every page but /privacy while the visitor has not chosen: one line at the top of the page, in the flow
 * (global.css), so it is seen at once and covers nothing; the full explanation a link away. Analytics stay off until
 * Accept, so nothing waits on the answer.
 */
export function CookieConsentBanner() {
  const consent = useAnalyticsConsent();
  const { pathname } = useLocation();
  // A choice made before hydration would be lost: the buttons wait for the app's code.
  const ready = useHydrated();
  // A prerendered page holds the banner for every visitor; one who chose earlier sees it leave on hydration, and its
  // line stays as blank space until the next page so that the page below does not move up.
  const shownFirst = useRef<boolean | null>(null);
  if (shownFirst.current === null) shownFirst.current = consent === null;
  const [chosenHere, setChosenHere] = useState(false);
  if (pathname === '/privacy') return null;
  if (consent !== null) {
    return shownFirst.current && !chosenHere ? <div className="consent-banner consent-banner--gone" /> : null;
  }
  const choose = (allowed: boolean) => {
    setChosenHere(true);
    setAnalyticsConsent(allowed);
  };
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
          onClick={() => choose(false)}
        >
          Decline
        </button>
        <button type="button" className="button button--small" disabled={!ready} onClick={() => choose(true)}>
          Accept
        </button>
      </div>
    </section>
  );
}
