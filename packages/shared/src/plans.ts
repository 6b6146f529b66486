import type { SubscriptionStatus } from './api-types';
/** The plans on sale, used by the API (GET /api/plans, checkout, fulfilment) and the web app. */

export type PlanType = 'generations' | 'generations_100' | 'monthly';

/** The shape GET /api/plans answers with (docs/api.md). */
export interface Plan {
  name: string;
  description: string;
  /** In US dollars, e.g. 6.99. */
  price: number;
  planType: PlanType;
  features: string[];
}

export interface PlanDetails extends Plan {
  /** One-time pack or monthly subscription. */
  kind: 'pack' | 'subscription';
  amountCents: number;
  currency: 'usd';
  /** Generations a pack adds, or the monthly premium quota a subscription grants each period. */
  generations: number;
}

export const MONTHLY_PREMIUM_QUOTA = 300;

export const plans: readonly PlanDetails[] = [
  {
    name: 'Generation Pack (50)',
    description: '50 extra card generations, paid once.',
    price: 6.99,
    planType: 'generations',
    features: ['50 generations', 'No recurring charges', 'Never expires'],
    kind: 'pack',
    amountCents: 699,
    currency: 'usd',
    generations: 50,
  },
  {
    name: 'Generation Pack (100)',
    description: '100 extra card generations, paid once.',
    price: 12.0,
    planType: 'generations_100',
    features: ['100 generations', 'No recurring charges', 'Never expires'],
    kind: 'pack',
    amountCents: 1200,
    currency: 'usd',
    generations: 100,
  },
  {
    name: 'Monthly',
    description: '300 premium generations every month.',
    price: 20.0,
    planType: 'monthly',
    features: ['300 premium generations per month', 'Fast response', 'Priority support', 'Quota resets on renewal'],
    kind: 'subscription',
    amountCents: 2000,
    currency: 'usd',
    generations: MONTHLY_PREMIUM_QUOTA,
  },
];

export function findPlan(planType: string): PlanDetails | undefined {
  return plans.find((plan) => plan.planType === planType);
}

/** The public part of a plan, as GET /api/plans answers. */
export function toPublicPlan({ name, description, price, planType, features }: PlanDetails): Plan {
  return { name, description, price, planType, features };
}

/** A subscription status with nothing in it: no plan, no packs, no allowance (spread it and set what differs). */
export const noSubscription: SubscriptionStatus = {
  has_access: false,
  plan_type: null,
  premium_quota: 0,
  premium_requests_used: 0,
  purchased_generations: 0,
  subscription_end_date: null,
  cancel_at_period_end: false,
  free_quota: 0,
  free_used: 0,
  remaining: 0,
};
