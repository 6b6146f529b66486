import type { FastifyInstance } from 'fastify';
import type { Kysely, Updateable } from 'kysely';
import type { CheckoutInfo, PaymentEvent, PaymentProvider } from '../../src/adapters/payments/payment-provider';
import type { Database } from '../../src/db/schema';

/** Vouches for whatever event is posted, so that what a test sees is billing's own check, not a signature's. */
export const trustingProvider: PaymentProvider = {
  name: 'stripe',
  createCheckout: async () => ({ sessionId: 'cs_unused', url: 'https://checkout.example.com/unused' }),
  getCheckout: async () => null,
  createPortal: async () => ({ url: 'https://billing.example.com/unused' }),
  parseWebhook: async (rawBody) => JSON.parse(rawBody.toString('utf8')) as PaymentEvent,
};

/** Posts `event` to the payment webhook of an app built with `trustingProvider`. */
export function sendPaymentEvent(app: FastifyInstance, event: PaymentEvent) {
  return app.inject({
    method: 'POST',
    url: '/api/payments/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': 'trusted' },
    payload: JSON.stringify(event),
  });
}

/** A user's plan and quota columns, as billing tests check them after a grant. */
export function billingFieldsOf(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('users')
    .select([
      'purchased_generations',
      'premium_quota',
      'premium_used',
      'plan_type',
      'subscription_id',
      'billing_customer_id',
      'subscription_end_date',
      'subscription_cancel_at_period_end',
    ])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
}

/** Sets a user's plan and quota columns straight in the database: the starting point of a quota test. */
export async function setBillingFields(
  db: Kysely<Database>,
  userId: string,
  fields: Updateable<Database['users']>,
): Promise<void> {
  await db.updateTable('users').set(fields).where('id', '=', userId).execute();
}

/** How many payments are recorded for a user. */
export async function paymentCountOf(db: Kysely<Database>, userId: string): Promise<number> {
  return (await db.selectFrom('payments').select('id').where('user_id', '=', userId).execute()).length;
}

/** A checkout the provider says was paid: the 50-generation pack at its price, for nobody yet (override what differs). */
export function paidCheckout(over: Partial<CheckoutInfo> = {}): CheckoutInfo {
  return {
    sessionId: 'cs_1',
    userId: null,
    planType: 'generations',
    paid: true,
    amountCents: 699,
    currency: 'usd',
    customerId: null,
    subscriptionId: null,
    periodEnd: null,
    ...over,
  };
}
