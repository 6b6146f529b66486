import { randomBytes } from 'node:crypto';
import { findPlan, type PlanType } from '@flashcards/shared/plans';
import type { Kysely, Selectable } from 'kysely';
import type { Database, TestCheckoutSessionsTable, TestSubscriptionsTable } from '../../db/schema';
import type { Clock } from '../clock';
import type { CheckoutInfo, PaymentEvent, PaymentProvider } from './payment-provider';
import { WebhookSignatureError } from './payment-provider';

const MONTH_MS = 30 * 24 * 60 * 60 * 1000;

export type TestCheckoutSession = Selectable<TestCheckoutSessionsTable>;
export type TestSubscription = Selectable<TestSubscriptionsTable>;

/**
 * The local test-mode payment provider: what Stripe does, on our own origin, charging nothing. Checkout and the
 * "billing portal" are pages served by this server (/test-checkout/…, /test-billing/…); paying, renewing and
 * cancelling there produce the same PaymentEvents a Stripe webhook does, so fulfilment runs the same code.
 */
export interface LocalPaymentProvider extends PaymentProvider {
  readonly name: 'test';
  findSession(sessionId: string): Promise<TestCheckoutSession | undefined>;
  /** Marks the session paid (once) and returns the checkout-completed event for it. */
  pay(sessionId: string): Promise<PaymentEvent | null>;
  findSubscription(userId: string): Promise<TestSubscription | undefined>;
  /** Starts the next period of the user's subscription and returns the renewal's invoice-paid event. */
  renew(userId: string): Promise<PaymentEvent | null>;
  /** Cancels at the end of the period and returns the subscription-updated event. */
  cancel(userId: string): Promise<PaymentEvent | null>;
  /** The user a billing-portal token belongs to, or null. */
  portalUser(token: string): Promise<string | null>;
}

const token = (prefix: string) => `${prefix}_${randomBytes(24).toString('base64url')}`;

export function createLocalPaymentProvider(deps: {
  db: Kysely<Database>;
  clock: Clock;
  publicUrl: string;
  /** How long a billing-portal link works. */
  portalTtlMs?: number;
}): LocalPaymentProvider {
  const { db, clock, publicUrl } = deps;
  const portalTtlMs = deps.portalTtlMs ?? 60 * 60 * 1000;
  const portalTokens = new Map<string, { userId: string; expiresAt: number }>();

  const findSession = (sessionId: string) =>
    db.selectFrom('test_checkout_sessions').selectAll().where('id', '=', sessionId).executeTakeFirst();

  const findSubscription = (userId: string) =>
    db
      .selectFrom('test_subscriptions')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();

  const toCheckout = async (session: TestCheckoutSession): Promise<CheckoutInfo> => {
    const subscription = session.subscription_id
      ? await db
          .selectFrom('test_subscriptions')
          .selectAll()
          .where('id', '=', session.subscription_id)
          .executeTakeFirst()
      : undefined;
    return {
      sessionId: session.id,
      userId: session.user_id,
      planType: (findPlan(session.plan_type)?.planType ?? null) as PlanType | null,
      paid: session.status === 'paid',
      amountCents: session.amount_cents,
      currency: session.currency,
      customerId: `cus_test_${session.user_id}`,
      subscriptionId: subscription?.id ?? null,
      periodEnd: subscription?.current_period_end ?? null,
    };
  };

  const eventId = () => token('evt_test');

  return {
    name: 'test',

    async createCheckout({ userId, plan, successUrl, cancelUrl }) {
      const id = token('cs_test');
      await db
        .insertInto('test_checkout_sessions')
        .values({
          id,
          user_id: userId,
          plan_type: plan.planType,
          amount_cents: plan.amountCents,
          currency: plan.currency,
          status: 'open',
          success_url: successUrl.replaceAll('{CHECKOUT_SESSION_ID}', id),
          cancel_url: cancelUrl,
          subscription_id: null,
          created_at: clock.now(),
          paid_at: null,
        })
        .execute();
      return { sessionId: id, url: `${publicUrl}/test-checkout/${id}` };
    },

    async getCheckout(sessionId) {
      const session = await findSession(sessionId);
      return session ? toCheckout(session) : null;
    },

    async createPortal({ userId, returnUrl }) {
      const portalToken = token('bps_test');
      portalTokens.set(portalToken, { userId, expiresAt: clock.now() + portalTtlMs });
      const url = new URL(`${publicUrl}/test-billing/${portalToken}`);
      url.searchParams.set('return_url', returnUrl);
      return { url: url.toString() };
    },

    async parseWebhook() {
      throw new WebhookSignatureError('test mode receives no webhooks');
    },

    findSession,
    findSubscription,

    async pay(sessionId) {
      const session = await findSession(sessionId);
      const plan = session ? findPlan(session.plan_type) : undefined;
      if (!session || !plan) return null;
      const now = clock.now();
      if (session.status !== 'paid') {
        await db.transaction().execute(async (trx) => {
          let subscriptionId: string | null = null;
          if (plan.kind === 'subscription') {
            subscriptionId = token('sub_test');
            await trx
              .insertInto('test_subscriptions')
              .values({
                id: subscriptionId,
                user_id: session.user_id,
                current_period_end: now + MONTH_MS,
                cancel_at_period_end: 0,
                status: 'active',
                created_at: now,
              })
              .execute();
          }
          await trx
            .updateTable('test_checkout_sessions')
            .set({ status: 'paid', paid_at: now, subscription_id: subscriptionId })
            .where('id', '=', sessionId)
            .where('status', '=', 'open')
            .execute();
        });
      }
      const paid = await findSession(sessionId);
      return paid ? { type: 'checkout_completed', eventId: eventId(), checkout: await toCheckout(paid) } : null;
    },

    async renew(userId) {
      const subscription = await findSubscription(userId);
      const plan = findPlan('monthly');
      if (subscription?.status !== 'active' || subscription.cancel_at_period_end || !plan) return null;
      const periodEnd = Math.max(subscription.current_period_end, clock.now()) + MONTH_MS;
      await db
        .updateTable('test_subscriptions')
        .set({ current_period_end: periodEnd })
        .where('id', '=', subscription.id)
        .execute();
      return {
        type: 'invoice_paid',
        eventId: eventId(),
        invoiceId: token('in_test'),
        subscriptionId: subscription.id,
        userId,
        billingReason: 'subscription_cycle',
        periodEnd,
        amountCents: plan.amountCents,
        currency: plan.currency,
      };
    },

    async cancel(userId) {
      const subscription = await findSubscription(userId);
      if (subscription?.status !== 'active') return null;
      await db
        .updateTable('test_subscriptions')
        .set({ cancel_at_period_end: 1 })
        .where('id', '=', subscription.id)
        .execute();
      return {
        type: 'subscription_updated',
        eventId: eventId(),
        subscriptionId: subscription.id,
        userId,
        periodEnd: subscription.current_period_end,
        cancelAtPeriodEnd: true,
        active: true,
      };
    },

    async portalUser(portalToken) {
      const entry = portalTokens.get(portalToken);
      if (!entry || entry.expiresAt < clock.now()) return null;
      return entry.userId;
    },
  };
}
