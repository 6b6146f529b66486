import { fillMessage } from '@flashcards/shared/messages';
import { plans, toPublicPlan } from '@flashcards/shared/plans';
import { serverMessages } from '@flashcards/shared/server-messages';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { refusalOf } from '../../../test/support/api-error';
import { paidCheckout } from '../../../test/support/billing';
import {
  type CheckoutInfo,
  type PaymentEvent,
  type PaymentProvider,
  WebhookSignatureError,
} from '../../adapters/payments/payment-provider';
import type { SessionUser } from '../../http/session-user';
import type { BillingRepo } from './billing.repo';
import { createBillingService } from './billing.service';

// billing.service.ts's rules with a recording repo and provider: what each payment grants (and the payments that
// grant nothing: short amount, other currency, unknown plan or subscription), where a checkout may return to, and
// the exact refusal of each call. checkout-rules.test.ts holds the same rules end to end through the database.

const now = Date.parse('2026-11-22T10:00:00Z');
const DAY_MS = 86_400_000;
const user: SessionUser = {
  id: 'u1',
  email: 'ada@example.com',
  token_version: 0,
  time_zone: 'UTC',
  fsrs_parameters: null,
  fsrs_optimized_at: null,
  fsrs_reviews_used: 0,
  class_memberships: 0,
};
const silent = { warn() {}, info() {}, error() {} } as unknown as FastifyBaseLogger;

interface Options {
  providerName?: 'stripe' | 'test';
  checkout?: CheckoutInfo | null;
  started?: { provider_session_id: string; plan_type: string } | undefined;
  subscriptionOwner?: string | null;
  customerId?: string | null;
  failProvider?: boolean;
  webhook?: () => Promise<PaymentEvent>;
}

function setup(options: Options = {}) {
  const calls: unknown[][] = [];
  let ids = 0;
  const repo = {
    async grantOnce(payment: unknown, grant: (trx: unknown) => Promise<void>) {
      calls.push(['grantOnce', payment]);
      await grant('trx');
      return true;
    },
    async addPurchasedGenerations(...args: unknown[]) {
      calls.push(['addPurchasedGenerations', ...args]);
    },
    async startSubscriptionPeriod(...args: unknown[]) {
      calls.push(['startSubscriptionPeriod', ...args]);
    },
    async setCustomer(...args: unknown[]) {
      calls.push(['setCustomer', ...args]);
    },
    async updateSubscription(...args: unknown[]) {
      calls.push(['updateSubscription', ...args]);
    },
    async endSubscription(...args: unknown[]) {
      calls.push(['endSubscription', ...args]);
    },
    async findUserBySubscription(subscriptionId: string) {
      calls.push(['findUserBySubscription', subscriptionId]);
      return options.subscriptionOwner ? { id: options.subscriptionOwner } : undefined;
    },
    async findBillingFields() {
      return { billing_customer_id: options.customerId ?? null };
    },
    async recordCheckout(row: unknown) {
      calls.push(['recordCheckout', row]);
    },
    async findCheckout(...args: unknown[]) {
      calls.push(['findCheckout', ...args]);
      return options.started;
    },
    listPayments: async () => [],
  } as unknown as BillingRepo;
  const fail = async () => {
    throw new Error('provider down');
  };
  const provider: PaymentProvider = {
    name: options.providerName ?? 'stripe',
    createCheckout: options.failProvider
      ? fail
      : async (input) => {
          calls.push(['createCheckout', input]);
          return { sessionId: 'cs_1', url: 'https://pay.example.com/cs_1' };
        },
    getCheckout: async (sessionId) => {
      calls.push(['getCheckout', sessionId]);
      return options.checkout ?? null;
    },
    createPortal: options.failProvider
      ? fail
      : async (input) => {
          calls.push(['createPortal', input]);
          return { url: 'https://pay.example.com/portal' };
        },
    parseWebhook: options.webhook ?? (async () => ({ type: 'ignored', eventId: 'evt', providerType: 'x' })),
  };
  const billing = createBillingService({
    repo,
    provider,
    clock: { now: () => now },
    newId: () => `id-${++ids}`,
    publicUrl: 'https://cards.example.com',
    allowedOrigins: ['https://cards.example.com', 'https://www.example.com'],
    log: silent,
  });
  return { billing, calls, names: () => calls.map((call) => call[0]) };
}

/** What every payment this service records has in common here. */
const recordedByUs = { id: 'id-1', provider: 'stripe', currency: 'usd', status: 'paid', created_at: now };

const checkout = (over: Partial<CheckoutInfo> = {}): CheckoutInfo => paidCheckout({ userId: 'u1', ...over });

const renewal = (over: Partial<Extract<PaymentEvent, { type: 'invoice_paid' }>> = {}): PaymentEvent => ({
  type: 'invoice_paid',
  eventId: 'evt_renew',
  invoiceId: 'in_2',
  subscriptionId: 'sub_1',
  userId: 'u1',
  billingReason: 'subscription_cycle',
  periodEnd: now + 30 * DAY_MS,
  amountCents: 2000,
  currency: 'usd',
  ...over,
});

/** Argument `index` of the recorded call `at`. */
const arg = (calls: unknown[][], at: number, index: number): unknown => (calls[at] ?? [])[index];

describe('a completed checkout', () => {
  it('grants a pack once, recording the payment as the provider gave it', async () => {
    const { billing, calls } = setup();
    await billing.handleEvent({ type: 'checkout_completed', eventId: 'evt_1', checkout: checkout() });
    expect(calls).toEqual([
      [
        'grantOnce',
        {
          ...recordedByUs,
          user_id: 'u1',
          provider_payment_id: 'cs_1',
          kind: 'checkout',
          plan_type: 'generations',
          amount_cents: 699,
          generations_granted: 50,
          provider_event_id: 'evt_1',
        },
      ],
      ['addPurchasedGenerations', 'trx', 'u1', 50, 'generations', now],
    ]);
  });

  it('starts a subscription period, 30 days from now when the provider gives no end, and keeps the customer', async () => {
    const { billing, calls } = setup();
    const monthly = checkout({ planType: 'monthly', amountCents: 2000, subscriptionId: 'sub_1', customerId: 'cus_1' });
    await billing.handleEvent({ type: 'checkout_completed', eventId: 'evt_2', checkout: monthly });
    expect(calls.slice(1)).toEqual([
      [
        'startSubscriptionPeriod',
        'trx',
        'u1',
        { quota: 300, periodEnd: now + 30 * DAY_MS, subscriptionId: 'sub_1', customerId: 'cus_1' },
        now,
      ],
      ['setCustomer', 'u1', 'cus_1'],
    ]);
    const dated = setup();
    await dated.billing.handleEvent({
      type: 'checkout_completed',
      eventId: 'evt_3',
      checkout: { ...monthly, periodEnd: now + 5 * DAY_MS },
    });
    expect((arg(dated.calls, 1, 3) as { periodEnd: number }).periodEnd).toBe(now + 5 * DAY_MS);
  });

  it('accepts the currency in capitals and an amount above the price (taxes)', async () => {
    const { billing, names } = setup();
    await billing.handleEvent({
      type: 'checkout_completed',
      eventId: 'evt_4',
      checkout: checkout({ currency: 'USD', amountCents: 700 }),
    });
    expect(names()).toEqual(['grantOnce', 'addPurchasedGenerations']);
  });

  it.each([
    ['unpaid', { paid: false }],
    ['without a user', { userId: null }],
    ['without a plan', { planType: null }],
    ['one cent short', { amountCents: 698 }],
    ['in another currency', { currency: 'eur' }],
    ['with an amount that is not a whole number of cents', { amountCents: 699.5 }],
    ['with an amount beyond safe integers', { amountCents: Number.MAX_SAFE_INTEGER + 2 }],
  ])('grants nothing for a checkout %s', async (_label, over) => {
    const { billing, calls } = setup();
    await billing.handleEvent({ type: 'checkout_completed', eventId: 'evt_5', checkout: checkout(over) });
    expect(calls).toEqual([]);
  });
});

describe('a renewal invoice', () => {
  it('starts the next period of the subscription a checkout of ours recorded', async () => {
    const { billing, calls } = setup({ subscriptionOwner: 'u7' });
    await billing.handleEvent(renewal({ userId: 'someone-else' }));
    expect(calls).toEqual([
      ['findUserBySubscription', 'sub_1'],
      [
        'grantOnce',
        {
          ...recordedByUs,
          user_id: 'u7',
          provider_payment_id: 'in_2',
          kind: 'renewal',
          plan_type: 'monthly',
          amount_cents: 2000,
          generations_granted: 300,
          provider_event_id: 'evt_renew',
        },
      ],
      [
        'startSubscriptionPeriod',
        'trx',
        'u7',
        { quota: 300, periodEnd: now + 30 * DAY_MS, subscriptionId: 'sub_1', customerId: null },
        now,
      ],
    ]);
  });

  it('accepts the currency in capitals', async () => {
    const { billing, names } = setup({ subscriptionOwner: 'u1' });
    await billing.handleEvent(renewal({ currency: 'USD' }));
    expect(names()).toContain('grantOnce');
  });

  it.each([
    ['one cent short', { amountCents: 1999 }],
    ['in another currency', { currency: 'eur' }],
  ])('grants nothing for a renewal %s', async (_label, over) => {
    const { billing, names } = setup({ subscriptionOwner: 'u1' });
    await billing.handleEvent(renewal(over));
    expect(names()).toEqual(['findUserBySubscription']);
  });

  it('grants nothing for an unknown subscription, whatever user id the event names', async () => {
    const { billing, names } = setup({ subscriptionOwner: null });
    await billing.handleEvent(renewal());
    expect(names()).toEqual(['findUserBySubscription']);
  });

  it('leaves the first invoice to its checkout', async () => {
    const { billing, calls } = setup({ subscriptionOwner: 'u1' });
    await billing.handleEvent(renewal({ billingReason: 'subscription_create' }));
    expect(calls).toEqual([]);
  });
});

describe('subscription changes', () => {
  const update = (active: boolean, periodEnd: number): PaymentEvent => ({
    type: 'subscription_updated',
    eventId: 'evt_u',
    subscriptionId: 'sub_1',
    userId: 'u1',
    periodEnd,
    cancelAtPeriodEnd: true,
    active,
  });

  it('an active subscription keeps its period end; an inactive one ends now, or earlier if its period did', async () => {
    const { billing, calls } = setup({ subscriptionOwner: 'u1' });
    await billing.handleEvent(update(true, now + DAY_MS));
    await billing.handleEvent(update(false, now + DAY_MS));
    await billing.handleEvent(update(false, now - DAY_MS));
    expect(calls.filter((call) => call[0] === 'updateSubscription')).toEqual([
      ['updateSubscription', 'u1', 'sub_1', { periodEnd: now + DAY_MS, cancelAtPeriodEnd: true }, now],
      ['updateSubscription', 'u1', 'sub_1', { periodEnd: now, cancelAtPeriodEnd: true }, now],
      ['updateSubscription', 'u1', 'sub_1', { periodEnd: now - DAY_MS, cancelAtPeriodEnd: true }, now],
    ]);
  });

  it('ends a deleted subscription; changes nothing for subscriptions we do not know', async () => {
    const known = setup({ subscriptionOwner: 'u1' });
    const deleted: PaymentEvent = {
      type: 'subscription_deleted',
      eventId: 'evt_d',
      subscriptionId: 'sub_1',
      userId: 'u1',
      endedAt: now - 5,
    };
    await known.billing.handleEvent(deleted);
    expect(known.calls.at(-1)).toEqual(['endSubscription', 'u1', 'sub_1', now - 5, now]);
    const unknown = setup({ subscriptionOwner: null });
    await unknown.billing.handleEvent(deleted);
    await unknown.billing.handleEvent(update(true, now));
    expect(unknown.names()).toEqual(['findUserBySubscription', 'findUserBySubscription']);
  });
});

describe('checkout, verification, portal and webhooks', () => {
  it('lists the public plans', () => {
    expect(setup().billing.plans()).toEqual(plans.map(toPublicPlan));
  });

  it('starts a checkout that returns to an allowed origin, with the customer from an earlier payment', async () => {
    const { billing, calls } = setup({ customerId: 'cus_9' });
    expect(
      await billing.createCheckout(user, { plan_type: 'monthly', base_url: 'https://www.example.com/any/path' }),
    ).toEqual({ checkout_url: 'https://pay.example.com/cs_1' });
    expect(calls[0]?.[1]).toMatchObject({
      userId: 'u1',
      email: 'ada@example.com',
      successUrl: 'https://www.example.com/account?success=true&plan=monthly&session_id={CHECKOUT_SESSION_ID}',
      cancelUrl: 'https://www.example.com/account?canceled=true',
      customerId: 'cus_9',
    });
    expect(calls[1]).toEqual([
      'recordCheckout',
      {
        id: 'id-1',
        user_id: 'u1',
        provider: 'stripe',
        provider_session_id: 'cs_1',
        plan_type: 'monthly',
        created_at: now,
      },
    ]);
  });

  it.each([
    ['an origin that is not ours', 'https://evil.example.net/account'],
    ['something that is not a URL', 'not a url'],
    ['no base URL', undefined],
  ])('sends the buyer back to our own origin for %s', async (_label, baseUrl) => {
    const { billing, calls } = setup();
    await billing.createCheckout(user, { plan_type: 'generations', ...(baseUrl ? { base_url: baseUrl } : {}) });
    expect((arg(calls, 0, 1) as { cancelUrl: string }).cancelUrl).toBe(
      'https://cards.example.com/account?canceled=true',
    );
    expect((arg(calls, 0, 1) as { customerId: unknown }).customerId).toBeNull();
  });

  it('refuses an unknown plan with 422, and a provider failure with 502', async () => {
    expect(await refusalOf(setup().billing.createCheckout(user, { plan_type: 'lifetime' } as never))).toEqual({
      code: 'validation_failed',
      detail: serverMessages.unknownPlan,
    });
    expect(
      await refusalOf(setup({ failProvider: true }).billing.createCheckout(user, { plan_type: 'monthly' })),
    ).toEqual({ code: 'payment_unavailable', detail: serverMessages.paymentProviderUnavailable });
  });

  it('verifies a paid checkout this user started, by session or by plan, and says what it gave', async () => {
    const started = { provider_session_id: 'cs_1', plan_type: 'generations' };
    const bySession = setup({ started, checkout: checkout() });
    expect(await bySession.billing.verify(user, { plan_type: 'generations', session_id: 'cs_1' })).toEqual({
      success: true,
      message: fillMessage(serverMessages.packPurchased, { generations: 50 }),
    });
    expect(bySession.calls[0]).toEqual(['findCheckout', 'u1', 'stripe', { sessionId: 'cs_1' }]);
    expect(bySession.names()).toContain('grantOnce');

    const monthly = checkout({ planType: 'monthly', amountCents: 2000 });
    const byPlan = setup({ started: { provider_session_id: 'cs_1', plan_type: 'monthly' }, checkout: monthly });
    expect(await byPlan.billing.verify(user, { plan_type: 'monthly', session_id: '' })).toEqual({
      success: true,
      message: fillMessage(serverMessages.subscriptionActive, { generations: 300 }),
    });
    expect(byPlan.calls[0]).toEqual(['findCheckout', 'u1', 'stripe', { planType: 'monthly' }]);
  });

  it.each([
    ['an unknown plan', { plan_type: 'lifetime' }, {}, 'lifetime'],
    ['an empty plan', { plan_type: '' }, {}, 'unknown'],
    ['a checkout never started', { plan_type: 'generations' }, { started: undefined }, 'generations'],
    [
      'a checkout started for another plan',
      { plan_type: 'generations' },
      { started: { provider_session_id: 'cs_1', plan_type: 'monthly' } },
      'generations',
    ],
    ['an unpaid checkout', { plan_type: 'generations' }, { checkout: checkout({ paid: false }) }, 'generations'],
    ['a missing checkout', { plan_type: 'generations' }, { checkout: null }, 'generations'],
    ["another user's checkout", { plan_type: 'generations' }, { checkout: checkout({ userId: 'u2' }) }, 'generations'],
  ])('answers success false and grants nothing for %s', async (_label, input, over, named) => {
    const { billing, names } = setup({
      started: { provider_session_id: 'cs_1', plan_type: 'generations' },
      checkout: checkout(),
      ...over,
    });
    expect(await billing.verify(user, input as { plan_type: 'generations' })).toEqual({
      success: false,
      message: fillMessage(serverMessages.verifyFailed, { plan: named }),
    });
    expect(names()).not.toContain('grantOnce');
  });

  it('opens the portal with our account page to return to; 404 on Stripe without a customer; 502 on failure', async () => {
    const withCustomer = setup({ customerId: 'cus_1' });
    expect(await withCustomer.billing.portal(user)).toEqual({ url: 'https://pay.example.com/portal' });
    expect(withCustomer.calls[0]).toEqual([
      'createPortal',
      { userId: 'u1', customerId: 'cus_1', returnUrl: 'https://cards.example.com/account' },
    ]);
    expect(await refusalOf(setup().billing.portal(user))).toEqual({
      code: 'no_billing_account',
      detail: serverMessages.nothingToManage,
    });
    expect(await setup({ providerName: 'test' }).billing.portal(user)).toEqual({
      url: 'https://pay.example.com/portal',
    });
    expect(await refusalOf(setup({ customerId: 'cus_1', failProvider: true }).billing.portal(user))).toEqual({
      code: 'payment_unavailable',
      detail: serverMessages.paymentProviderUnavailable,
    });
  });

  it('handles a webhook event it can trust; 400 for a bad signature; other failures pass on', async () => {
    const trusted = setup({
      subscriptionOwner: 'u1',
      webhook: async () => renewal(),
    });
    expect(await trusted.billing.webhook(Buffer.from('{}'), 'sig')).toEqual({ received: true });
    expect(trusted.names()).toContain('grantOnce');
    const forged = setup({
      webhook: async () => {
        throw new WebhookSignatureError('bad');
      },
    });
    expect(await refusalOf(forged.billing.webhook(Buffer.from('{}'), 'sig'))).toEqual({
      code: 'invalid_signature',
      detail: serverMessages.webhookSignatureInvalid,
    });
    const broken = setup({
      webhook: async () => {
        throw new Error('parser broke');
      },
    });
    await expect(broken.billing.webhook(Buffer.from('{}'), undefined)).rejects.toThrow('parser broke');
  });
});
