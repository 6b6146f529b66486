import { describe, expect, it } from 'vitest';
import {
  billingFieldsOf,
  paymentCountOf,
  sendPaymentEvent,
  setBillingFields,
  trustingProvider,
} from '../../../test/support/billing';
import { signUpAndLogIn } from '../../../test/support/factories';
import { useTestApp } from '../../../test/support/test-app';
import type { PaymentEvent } from '../../adapters/payments/payment-provider';

// A monthly renewal (an `invoice_paid` event) grants a new period only when the invoice paid the plan's price in the
// plan's currency. The provider here vouches for whatever event the test posts, so the rule under test is billing's
// own check, not a provider's signature.

const DAY_MS = 86_400_000;

const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000' }, payments: trustingProvider });

let counter = 0;

/** A subscriber 250 generations into a period that ends tomorrow, on subscription `sub_rule_N`. */
async function subscriber() {
  const { user } = await signUpAndLogIn(ctx.app);
  const subscriptionId = `sub_rule_${++counter}`;
  const periodEnd = ctx.clock.now() + DAY_MS;
  await setBillingFields(ctx.database.db, user._id, {
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
    periodEnd: ctx.clock.now() + 31 * DAY_MS,
    amountCents,
    currency,
  };
  return sendPaymentEvent(ctx.app, event);
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
    expect(await billingFieldsOf(ctx.database.db, userId)).toMatchObject({
      premium_quota: 300,
      premium_used: 250,
      subscription_end_date: periodEnd,
    });
    expect(await paymentCountOf(ctx.database.db, userId)).toBe(0);
  });

  it.each([
    ['the exact price', 2_000, 'usd'],
    ['the price with tax on top', 2_400, 'usd'],
    ['the currency in capitals', 2_000, 'USD'],
  ])('%s (%d %s): a new period with the month’s usage reset, recorded once', async (_case, amount, currency) => {
    const { userId, subscriptionId } = await subscriber();
    const response = await renewal(subscriptionId, amount, currency);
    expect(response.statusCode, response.body).toBe(200);
    expect(await billingFieldsOf(ctx.database.db, userId)).toMatchObject({
      plan_type: 'monthly',
      premium_quota: 300,
      premium_used: 0,
      subscription_end_date: ctx.clock.now() + 31 * DAY_MS,
    });
    const payments = await ctx.database.db
      .selectFrom('payments')
      .select(['kind', 'plan_type', 'amount_cents', 'currency', 'generations_granted'])
      .where('user_id', '=', userId)
      .execute();
    expect(payments).toEqual([
      { kind: 'renewal', plan_type: 'monthly', amount_cents: amount, currency, generations_granted: 300 },
    ]);
  });
});
