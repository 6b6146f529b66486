import type { SubscriptionStatus, User } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { errorDetail } from '../../lib/api-client';
import { useAuth } from '../../lib/auth-context';
import { useBillingPortal, useSubscriptionStatus } from '../../lib/billing-api';
import { hardNavigate } from '../../lib/navigation';
import { AccountSecurity } from './account-security';
import { Faq } from './faq';
import { UpdatesModal } from './updates-modal';
import { UsageMeters } from './usage-meters';
import './account.css';
import { LinkList } from '../../components/link-list';
import { Notice } from '../../components/notice';
import type { SiteLink } from '../../components/site-links';

/** The subscription status is refreshed this often while the page is open. */
export const statusPollMs = 30_000;

const privacyLinks: readonly SiteLink[] = [
  { label: 'Privacy Policy', href: '/privacy' },
  { label: 'Privacy Settings', href: '/privacy-settings' },
];

const renewalFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });

/** Shown as the renewal date: the subscription's end date in the user's calendar. */
export function formatRenewalDate(iso: string): string {
  return renewalFormat.format(new Date(iso));
}

/** "Ada Lovelace" → "AL", "Ada" → "A", no name → the email's first letter. */
export function initialsOf(user: Pick<User, 'name' | 'email'>): string {
  const words = user.name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : words;
  const initials = letters.map((word) => word?.charAt(0) ?? '').join('');
  return (initials || user.email.charAt(0)).toUpperCase();
}

function PlanStatus({ status }: { status: SubscriptionStatus | undefined }) {
  const portal = useBillingPortal();
  const [error, setError] = useState<string | null>(null);
  const monthly = status?.has_access === true && status.plan_type === 'monthly';

  const manage = async () => {
    setError(null);
    try {
      hardNavigate((await portal.mutateAsync()).url);
    } catch (caught) {
      setError(errorDetail(caught, messages.accountPortalFailed));
    }
  };

  return (
    <section className="panel account-card" aria-labelledby="plan-heading">
      <h2 id="plan-heading">Monthly plan</h2>
      {status === undefined ? (
        <p>{messages.loading}</p>
      ) : monthly ? (
        <>
          <p className="plan-status plan-status--active">Status: Active</p>
          {status.subscription_end_date && (
            <p>
              {status.cancel_at_period_end ? 'Cancelled: access until' : 'Renews on'}{' '}
              <time dateTime={status.subscription_end_date}>{formatRenewalDate(status.subscription_end_date)}</time>
            </p>
          )}
        </>
      ) : (
        <p className="plan-status">Status: Not subscribed. You are using the free plan and any packs you bought.</p>
      )}
      <button type="button" className="button button--secondary" onClick={manage} disabled={portal.isPending}>
        {portal.isPending ? 'Opening...' : 'Manage Subscription'}
      </button>
      {error && <Notice tone="error">{error}</Notice>}
    </section>
  );
}

/** What the billing feature adds to the account page, handed in by the page so that this feature does not import it. */
export interface AccountBilling {
  /** The message after a return from checkout, while it shows. */
  paymentNotice: string | null;
  plans: (props: { user: User; monthlyActive: boolean }) => ReactNode;
}

/** The account page. */
export function AccountScreen({ billing }: { billing: AccountBilling }) {
  const { user, logout, notice, dismissNotice } = useAuth();
  const status = useSubscriptionStatus({ pollMs: statusPollMs });
  const { paymentNotice } = billing;
  const [showUpdates, setShowUpdates] = useState(false);
  if (!user) return null;
  const displayName = user.name || user.email;
  const monthlyActive = status.data?.has_access === true && status.data.plan_type === 'monthly';

  return (
    <div className="account">
      <section className="account-banner" aria-label="Create cards">
        <p>Turn your notes into flashcards in seconds.</p>
        <Link className="button" to="/create">
          Create flashcards now
        </Link>
      </section>

      <div className="account__header">
        <h1>Welcome, {displayName}!</h1>
        <button type="button" className="button button--secondary" onClick={() => setShowUpdates(true)}>
          What's New
        </button>
      </div>

      {notice && (
        <div className="notice notice--info" role="status">
          <p>{notice}</p>
          <button type="button" className="button button--secondary" onClick={dismissNotice}>
            OK
          </button>
        </div>
      )}

      {paymentNotice && <Notice tone="success">{paymentNotice}</Notice>}

      <div className="account__grid">
        <section className="panel account-card" aria-labelledby="user-heading">
          <h2 id="user-heading">Your profile</h2>
          <div className="user-info">
            <span className="avatar" aria-hidden="true">
              {initialsOf(user)}
            </span>
            <div>
              {user.name && <p className="user-info__name">{user.name}</p>}
              <p className="user-info__email">{user.email}</p>
            </div>
          </div>
          <button type="button" className="button button--secondary" onClick={logout}>
            Logout
          </button>
        </section>
        <PlanStatus status={status.data} />
      </div>

      {status.data && <UsageMeters status={status.data} />}
      {billing.plans({ user, monthlyActive })}
      <Faq />

      <AccountSecurity />

      <section className="panel account-card" aria-labelledby="privacy-heading">
        <h2 id="privacy-heading">Privacy</h2>
        <LinkList className="account-links" links={privacyLinks} />
      </section>

      {showUpdates && <UpdatesModal onClose={() => setShowUpdates(false)} />}
    </div>
  );
}
