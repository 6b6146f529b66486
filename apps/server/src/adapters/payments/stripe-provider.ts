import type { PlanType } from '@flashcards/shared/plans';
import Stripe from 'stripe';
import type { CheckoutInfo, PaymentEvent, PaymentProvider } from './payment-provider';
import { WebhookSignatureError } from './payment-provider';

export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string | undefined;
  /** Price ids per plan; a plan without one is charged with inline price data. */
  priceIds: Partial<Record<PlanType, string>>;
  /** The wall clock for signature timestamps (Stripe's signatures carry real time). */
  now?: () => number;
  /** Where the API lives; tests point the SDK at a local server. */
  api?: { host: string; port: number; protocol: 'http' | 'https' };
}

/** Clock skew allowed for a webhook signature's timestamp ahead of ours. */
const FUTURE_SIGNATURE_TOLERANCE_S = 60;

const toMs = (seconds: number | null | undefined) => (seconds ? seconds * 1000 : null);
const idOf = (value: string | { id: string } | null | undefined) =>
  value === null || value === undefined ? null : typeof value === 'string' ? value : value.id;

/** Stripe Checkout (payment or subscription mode), Billing Portal and signed webhooks. */
export function createStripeProvider(options: StripeProviderOptions): PaymentProvider {
  const stripe = new Stripe(options.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(options.api ?? {}),
  });

  const periodEndOf = async (subscriptionId: string | null): Promise<number | null> => {
    if (!subscriptionId) return null;
    const subscription = await stripe.subscriptions.retrieve(subscriptionId);
    return subscriptionPeriodEnd(subscription);
  };

  const toCheckout = async (session: Stripe.Checkout.Session): Promise<CheckoutInfo> => {
    const subscriptionId = idOf(session.subscription);
    const paid = session.status === 'complete' && session.payment_status !== 'unpaid';
    return {
      sessionId: session.id,
      userId: session.client_reference_id ?? session.metadata?.user_id ?? null,
      planType: (session.metadata?.plan_type as PlanType | undefined) ?? null,
      paid,
      amountCents: session.amount_total ?? 0,
      currency: session.currency ?? 'usd',
      customerId: idOf(session.customer),
      subscriptionId,
      periodEnd: paid ? await periodEndOf(subscriptionId) : null,
    };
  };

  return {
    name: 'stripe',

    async createCheckout({ userId, email, plan, successUrl, cancelUrl, customerId }) {
      const priceId = options.priceIds[plan.planType];
      const metadata = { user_id: userId, plan_type: plan.planType };
      const lineItem: Stripe.Checkout.SessionCreateParams.LineItem = priceId
        ? { price: priceId, quantity: 1 }
        : {
            quantity: 1,
            price_data: {
              currency: plan.currency,
              unit_amount: plan.amountCents,
              product_data: { name: plan.name, description: plan.description },
              ...(plan.kind === 'subscription' ? { recurring: { interval: 'month' as const } } : {}),
            },
          };
      const session = await stripe.checkout.sessions.create({
        mode: plan.kind === 'subscription' ? 'subscription' : 'payment',
        line_items: [lineItem],
        client_reference_id: userId,
        metadata,
        success_url: successUrl,
        cancel_url: cancelUrl,
        ...(customerId ? { customer: customerId } : { customer_email: email }),
        ...(plan.kind === 'subscription' ? { subscription_data: { metadata } } : {}),
      });
      if (!session.url) throw new Error('Stripe returned a checkout session without a URL');
      return { sessionId: session.id, url: session.url };
    },

    async getCheckout(sessionId) {
      try {
        return await toCheckout(await stripe.checkout.sessions.retrieve(sessionId));
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
        throw error;
      }
    },

    async createPortal({ customerId, returnUrl }) {
      if (!customerId) throw new Error('no Stripe customer for this user');
      const portal = await stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl });
      return { url: portal.url };
    },

    async parseWebhook(rawBody, signature) {
      if (!options.webhookSecret || !signature) throw new WebhookSignatureError('missing signature or secret');
      // The SDK only refuses signatures that are too old; one dated in the future is refused here.
      const signedAt = Number(/(?:^|,)\s*t=(\d+)/.exec(signature)?.[1] ?? Number.NaN);
      const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
      if (!Number.isFinite(signedAt) || signedAt > nowSeconds + FUTURE_SIGNATURE_TOLERANCE_S) {
        throw new WebhookSignatureError('signature timestamp missing or in the future');
      }
      let event: Stripe.Event;
      try {
        event = await stripe.webhooks.constructEventAsync(rawBody, signature, options.webhookSecret);
      } catch (error) {
        throw new WebhookSignatureError(error instanceof Error ? error.message : 'bad signature');
      }
      return normalise(event, toCheckout);
    },
  };
}

function subscriptionPeriodEnd(subscription: Stripe.Subscription): number | null {
  // Since API version 2025-03-31 the period lives on the subscription items.
  const ends = subscription.items.data.map((item) => item.current_period_end).filter(Boolean);
  return ends.length ? Math.max(...ends) * 1000 : null;
}

/** What every subscription event tells: the event, the subscription and its user (our checkout's metadata). */
function subscriptionFacts(event: Stripe.Event, subscription: Stripe.Subscription) {
  return { eventId: event.id, subscriptionId: subscription.id, userId: subscription.metadata?.user_id ?? null };
}

async function normalise(
  event: Stripe.Event,
  toCheckout: (session: Stripe.Checkout.Session) => Promise<CheckoutInfo>,
): Promise<PaymentEvent> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return { type: 'checkout_completed', eventId: event.id, checkout: await toCheckout(event.data.object) };
    case 'invoice.paid': {
      const invoice = event.data.object;
      const details = invoice.parent?.subscription_details;
      const subscriptionId = idOf(details?.subscription);
      if (!subscriptionId) return { type: 'ignored', eventId: event.id, providerType: event.type };
      const lineEnds = invoice.lines.data.map((line) => line.period?.end ?? 0);
      return {
        type: 'invoice_paid',
        eventId: event.id,
        invoiceId: invoice.id ?? event.id,
        subscriptionId,
        userId: details?.metadata?.user_id ?? null,
        billingReason: invoice.billing_reason,
        periodEnd: (Math.max(invoice.period_end, ...lineEnds) || invoice.period_end) * 1000,
        amountCents: invoice.amount_paid,
        currency: invoice.currency,
      };
    }
    case 'customer.subscription.updated': {
      const subscription = event.data.object;
      return {
        type: 'subscription_updated',
        ...subscriptionFacts(event, subscription),
        periodEnd: subscriptionPeriodEnd(subscription) ?? Date.now(),
        cancelAtPeriodEnd: subscription.cancel_at_period_end,
        active: ['active', 'trialing', 'past_due'].includes(subscription.status),
      };
    }
    case 'customer.subscription.deleted': {
      const subscription = event.data.object;
      return {
        type: 'subscription_deleted',
        ...subscriptionFacts(event, subscription),
        endedAt: toMs(subscription.ended_at) ?? subscriptionPeriodEnd(subscription) ?? event.created * 1000,
      };
    }
    default:
      return { type: 'ignored', eventId: event.id, providerType: event.type };
  }
}
