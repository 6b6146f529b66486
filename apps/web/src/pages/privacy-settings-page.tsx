import { useId } from 'react';
import { Link } from 'react-router';
import { setAnalyticsConsent, useAnalyticsConsent } from '../features/consent/consent-store';
import { SiteLayout } from '../layout/site-layout';
import { appName, useDocumentTitle } from '../lib/use-document-title';

/** /privacy-settings: the analytics consent toggle. */
export function PrivacySettingsPage() {
  useDocumentTitle(`Privacy Settings | ${appName}`);
  const consent = useAnalyticsConsent();
  const toggleId = useId();
  const descriptionId = useId();

  return (
    <SiteLayout>
      <main id="main" className="page page--narrow">
        <h1>Privacy Settings</h1>
        <div className="setting">
          <div>
            <label htmlFor={toggleId} className="setting__label">
              Analytics
            </label>
            <p id={descriptionId} className="muted">
              Allow anonymous usage statistics that help us improve the product. Storage needed for signing in and your
              preferences is always on.
            </p>
          </div>
          <input
            id={toggleId}
            type="checkbox"
            role="switch"
            aria-checked={consent === true}
            className="switch"
            aria-describedby={descriptionId}
            checked={consent === true}
            onChange={(event) => setAnalyticsConsent(event.target.checked)}
          />
        </div>
        <p className="muted" role="status">
          {consent === null
            ? 'You have not made a choice yet: analytics stay off.'
            : consent
              ? 'Analytics are on.'
              : 'Analytics are off.'}
        </p>
        <p>
          Read the <Link to="/privacy">privacy policy</Link>.
        </p>
      </main>
    </SiteLayout>
  );
}
