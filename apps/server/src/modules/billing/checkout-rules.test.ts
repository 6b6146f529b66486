import { fillMessage } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import {
  billingFieldsOf,
  paidCheckout,
  paymentCountOf,
  sendPaymentEvent,
  setBillingFields,
  trustingProvider,
} from '../../../test/support/billing';
import { signUpAndLogIn } from '../../../test/support/factories';
import { useTestApp } from '../../../test/support/test-app';
import type { CheckoutInfo, PaymentEvent } from '../../adapters/payments/payment-provider';

// Billing's own rules for a completed checkout, a subscription update, verification after checkout and a monthly
// renewal (granted only when the invoice paid the plan's price in the plan's currency), each with a case where the
// rule decides. A mutation run (npm run mutate) found that breaking any of them failed no test.

const DAY_MS = 86_400_000;

const events = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000' }, payments: trustingProvider });
const local = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000', PUBLIC_URL: 'http://localhost:3000' } });

let counter = 0;

const send = (event: PaymentEvent) => sendPaymentEvent(events.app, event);

function completed(checkout: Partial<CheckoutInfo>): PaymentEvent {
  counter += 1;
  return {
    type: 'checkout_completed',
    eventId: `evt_checkout_${counter}`,
    checkout: paidCheckout({ sessionId: `cs_rule_${counter}`, ...checkout }),
  };
}

describe('a completed checkout grants only when it is paid, for one of our users and plans', () => {
  it.each([
    ['not paid (an asynchronous payment still pending)', { paid: false }],
    ['without our user id', { userId: null }],
    ['for a plan we do not sell', { planType: null }],
  ])('%s: 200, nothing granted, nothing recorded', async (_case, checkout) => {
    const { user } = await signUpAndLogIn(events.app);
    const response = await send(completed({ userId: user._id, ...checkout }));
    expect(response.statusCode, response.body).toBe(200);
    expect(await billingFieldsOf(events.database.db, user._id)).toMatchObject({
      purchased_generations: 0,
      plan_type: null,
    });
    expect(await paymentCountOf(events.database.db, user._id)).toBe(0);
  });

  it('a monthly checkout whose provider gives no period end runs 30 days from now', async () => {
    const { user } = await signUpAndLogIn(events.app);
    const event = completed({
      userId: user._id,
      planType: 'monthly',
      amountCents: 2000,
      subscriptionId: `sub_rule_${counter}`,
    });
    expect((await send(event)).statusCode).toBe(200);
    expect(await billingFieldsOf(events.database.db, user._id)).toMatchObject({
      plan_type: 'monthly',
      premium_quota: 300,
      subscription_end_date: events.clock.now() + 30 * DAY_MS,
    });
  });
});

describe('a subscription update', () => {
  async function subscriber() {
    const { user } = await signUpAndLogIn(events.app);
    const subscriptionId = `sub_update_${++counter}`;
    await setBillingFields(events.database.db, user._id, {
      plan_type: 'monthly',
      premium_quota: 300,
      subscription_id: subscriptionId,
      subscription_end_date: events.clock.now() + 10 * DAY_MS,
    });
    return { userId: user._id, subscriptionId };
  }

  const updated = (subscriptionId: string, active: boolean, cancelAtPeriodEnd: boolean): PaymentEvent => ({
    type: 'subscription_updated',
    eventId: `evt_update_${++counter}`,
    subscriptionId,
    userId: null,
    periodEnd: events.clock.now() + 20 * DAY_MS,
    cancelAtPeriodEnd,
    active,
  });

  it('that is no longer active (unpaid, past due) ends premium access now, not at the period end', async () => {
    const { userId, subscriptionId } = await subscriber();
    expect((await send(updated(subscriptionId, false, false))).statusCode).toBe(200);
    expect((await billingFieldsOf(events.database.db, userId)).subscription_end_date).toBe(events.clock.now());
  });

  it('that is active and set to cancel keeps access until the period end', async () => {
    const { userId, subscriptionId } = await subscriber();
    expect((await send(updated(subscriptionId, true, true))).statusCode).toBe(200);
    expect(await billingFieldsOf(events.database.db, userId)).toMatchObject({
      subscription_end_date: events.clock.now() + 20 * DAY_MS,
      subscription_cancel_at_period_end: 1,
    });
  });
});

describe('verification after checkout (test mode)', () => {
  const post = (url: string, headers: Record<string, string>, payload: object = {}) =>
    local.app.inject({ method: 'POST', url, headers, payload });

  async function paidCheckout(headers: Record<string, string>, planType: string) {
    const response = await post('/api/create-subscription', headers, { plan_type: planType });
    expect(response.statusCode, response.body).toBe(200);
    const path = new URL(response.json().checkout_url).pathname;
    expect((await local.app.inject({ method: 'POST', url: `${path}/pay` })).statusCode).toBe(303);
    return path.split('/').pop() as string;
  }

  it('refuses a paid session under another plan’s name, and grants nothing more', async () => {
    const { user, headers } = await signUpAndLogIn(local.app);
    const sessionId = await paidCheckout(headers, 'generations');
    const verify = await post('/api/verify-subscription', headers, {
      plan_type: 'generations_100',
      session_id: sessionId,
    });
    expect(verify.json()).toEqual({
      success: false,
      message: fillMessage(serverMessages.verifyFailed, { plan: 'generations_100' }),
    });
    expect((await billingFieldsOf(local.database.db, user._id)).purchased_generations).toBe(50);
  });

  it('names an empty plan "unknown" in its refusal', async () => {
    const { headers } = await signUpAndLogIn(local.app);
    const verify = await post('/api/verify-subscription', headers, { plan_type: '' });
    expect(verify.json()).toEqual({
      success: false,
      message: fillMessage(serverMessages.verifyFailed, { plan: 'unknown' }),
    });
  });

  it('finds the plan’s latest checkout when no session id is given, and says what a subscription gives', async () => {
    const { headers } = await signUpAndLogIn(local.app);
    await paidCheckout(headers, 'monthly');
    const verify = await post('/api/verify-subscription', headers, { plan_type: 'monthly' });
    expect(verify.json()).toEqual({
      success: true,
      message: fillMessage(serverMessages.subscriptionActive, { generations: 300 }),
    });
  });

  it('opens the test-mode billing page for a user who never paid (no provider customer needed)', async () => {
    const { headers } = await signUpAndLogIn(local.app);
    const portal = await post('/api/billing-portal', headers);
    expect(portal.statusCode, portal.body).toBe(200);
    expect(portal.json().url).toMatch(/^http:\/\/localhost:3000\/test-billing\/bps_test_[\w-]+\?return_url=/);
  });
});

/** A subscriber 250 generations into a period that ends tomorrow, on subscription `sub_rule_N`. */
async function subscriber() {
  const { user } = await signUpAndLogIn(events.app);
  const subscriptionId = `sub_rule_${++counter}`;
  const periodEnd = events.clock.now() + DAY_MS;
  await setBillingFields(events.database.db, user._id, {
    plan_type: 'monthly',
    premium_quota: 300,
    premium_used: 250,
    subscription_id: subscriptionId,
    subscription_end_date: periodEnd,
  });
  return { userId: user._id, subscriptionId, periodEnd };
}

function renewal(subscriptionId: string, amountCents: number, currency: string) {
  counter += 1;
  const event: PaymentEvent = {
    type: 'invoice_paid',
    eventId: `evt_rule_${counter}`,
    invoiceId: `in_rule_${counter}`,
    subscriptionId,
    userId: null,
    billingReason: 'subscription_cycle',
    periodEnd: events.clock.now() + 31 * DAY_MS,
    amountCents,
    currency,
  };
  return sendPaymentEvent(events.app, event);
}

describe('a monthly renewal is granted only for the plan’s price in the plan’s currency', () => {
  it.each([
    ['one cent short', 1_999, 'usd'],
    ['a tampered 1-cent invoice', 1, 'usd'],
    ['nothing paid', 0, 'usd'],
    ['a negative amount', -2_000, 'usd'],
    ['a fractional amount', 2_000.5, 'usd'],
    ['the right figure in yen', 2_000, 'jpy'],
    ['the right figure in euros', 2_000, 'eur'],
  ])('%s (%d %s): 200 to the provider, nothing granted, nothing recorded', async (_case, amount, currency) => {
    const { userId, subscriptionId, periodEnd } = await subscriber();
    const response = await renewal(subscriptionId, amount, currency);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ received: true });
    expect(await billingFieldsOf(events.database.db, userId)).toMatchObject({
      premium_quota: 300,
      premium_used: 250,
      subscription_end_date: periodEnd,
    });
    expect(await paymentCountOf(events.database.db, userId)).toBe(0);
  });

  it.each([
    ['the exact price', 2_000, 'usd'],
    ['the price with tax on top', 2_400, 'usd'],
    ['the currency in capitals', 2_000, 'USD'],
  ])('%s (%d %s): a new period with the month’s usage reset, recorded once', async (_case, amount, currency) => {
    const { userId, subscriptionId } = await subscriber();
    const response = await renewal(subscriptionId, amount, currency);
    expect(response.statusCode, response.body).toBe(200);
    expect(await billingFieldsOf(events.database.db, userId)).toMatchObject({
      plan_type: 'monthly',
      premium_quota: 300,
      premium_used: 0,
      subscription_end_date: events.clock.now() + 31 * DAY_MS,
    });
    const payments = await events.database.db
      .selectFrom('payments')
      .select(['kind', 'plan_type', 'amount_cents', 'currency', 'generations_granted'])
      .where('user_id', '=', userId)
      .execute();
    expect(payments).toEqual([
      { kind: 'renewal', plan_type: 'monthly', amount_cents: amount, currency, generations_granted: 300 },
    ]);
  });
});
