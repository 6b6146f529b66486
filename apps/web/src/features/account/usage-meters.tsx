import type { SubscriptionStatus } from '@flashcards/shared/api-types';
import { useId } from 'react';

function Meter({ label, used, max }: { label: string; used: number; max: number }) {
  const id = useId();
  return (
    <div className="usage-meter">
      <div className="usage-meter__row">
        <label htmlFor={id}>{label}</label>
        <span>
          {used} of {max} used
        </span>
      </div>
      <meter id={id} min={0} max={Math.max(max, 1)} value={Math.min(used, max)} />
    </div>
  );
}

/** What the user has used and what is left: the monthly quota, the free quota and purchased packs. */
export function UsageMeters({ status }: { status: SubscriptionStatus }) {
  return (
    <section className="panel account-card" aria-labelledby="usage-heading">
      <h2 id="usage-heading">Usage</h2>
      {status.premium_quota > 0 && (
        <Meter label="Monthly premium generations" used={status.premium_requests_used} max={status.premium_quota} />
      )}
      {status.free_quota > 0 && <Meter label="Free generations" used={status.free_used} max={status.free_quota} />}
      <dl className="usage-figures">
        <div>
          <dt>Purchased generations left</dt>
          <dd data-testid="purchased-generations">{status.purchased_generations}</dd>
        </div>
        <div>
          <dt>Generations available now</dt>
          <dd data-testid="remaining-generations">{status.remaining}</dd>
        </div>
      </dl>
    </section>
  );
}
