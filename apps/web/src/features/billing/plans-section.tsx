import type { User } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { plans as knownPlans, type Plan, type PlanType, toPublicPlan } from '@flashcards/shared/plans';
import { useState } from 'react';
import { Notice } from '../../components/notice';
import { errorDetail } from '../../lib/api-client';
import { useCreateCheckout, usePlans } from '../../lib/billing-api';
import { localStore } from '../../lib/local-store';
import { hardNavigate } from '../../lib/navigation';
import { storageKeys } from '../../lib/storage-keys';

const fallbackPlans: Plan[] = knownPlans.map(toPublicPlan);

function priceText(plan: Plan): string {
  const price = `$${plan.price.toFixed(2)}`;
  return plan.planType === 'monthly' ? `${price} per month` : `${price} one-time`;
}

/**
 * Plans and packs (GET /api/plans; the shared plan list stands in until it answers). Buying keeps the plan type
 * and the buyer's email and name locally for the return, asks for a checkout (POST /api/create-subscription with
 * this page's origin) and sends the browser there.
 */
export function PlansSection({ user, monthlyActive }: { user: User; monthlyActive: boolean }) {
  const plansQuery = usePlans();
  const checkout = useCreateCheckout();
  const [pending, setPending] = useState<PlanType | null>(null);
  const [error, setError] = useState<string | null>(null);
  const list = plansQuery.data ?? fallbackPlans;

  const buy = async (planType: PlanType) => {
    setError(null);
    setPending(planType);
    localStore.set(storageKeys.selectedPlanType, planType);
    localStore.set(storageKeys.pendingSubscriptionEmail, user.email);
    localStore.set(storageKeys.pendingSubscriptionName, user.name);
    try {
      const { checkout_url: url } = await checkout.mutateAsync({ planType, baseUrl: window.location.origin });
      hardNavigate(url);
    } catch (caught) {
      setError(errorDetail(caught, messages.accountCheckoutFailed));
      setPending(null);
    }
  };

  return (
    <section className="panel account-card" aria-labelledby="plans-heading">
      <h2 id="plans-heading">Plans and packs</h2>
      <div className="plans-grid">
        {list.map((plan) => {
          const isMonthly = plan.planType === 'monthly';
          const current = isMonthly && monthlyActive;
          const label = isMonthly ? `Subscribe to ${plan.name}` : `Buy ${plan.name}`;
          return (
            <article key={plan.planType} className="plan-card">
              <h3>{plan.name}</h3>
              <p className="plan-card__price">{priceText(plan)}</p>
              <p>{plan.description}</p>
              <ul>
                {plan.features.map((feature) => (
                  <li key={feature}>{feature}</li>
                ))}
              </ul>
              <button
                type="button"
                className="button button--block"
                disabled={current || pending !== null}
                onClick={() => buy(plan.planType)}
              >
                {current ? 'Current plan' : pending === plan.planType ? 'Redirecting...' : label}
              </button>
            </article>
          );
        })}
      </div>
      {error && <Notice tone="error">{error}</Notice>}
    </section>
  );
}
