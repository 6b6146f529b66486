import type { PlanDetails, PlanType } from '@flashcards/shared/plans';

/**
 * A payment provider (Stripe, or the local test mode) as billing sees it: it hosts checkout and the billing portal,
 * tells whether a checkout was paid, and turns its webhooks into PaymentEvents. Billing never trusts the client:
 * every grant comes from a checkout or an event the provider vouches for.
 */
export interface PaymentProvider {
  readonly name: 'stripe' | 'test';
  createCheckout(input: {
    userId: string;
    email: string;
    plan: PlanDetails;
    /** May contain the literal `{CHECKOUT_SESSION_ID}`, replaced by the provider. */
    successUrl: string;
    cancelUrl: string;
    /** The provider's customer id from an earlier payment, if any. */
    customerId: string | null;
  }): Promise<{ sessionId: string; url: string }>;
  /** The checkout as the provider knows it, or null when it does not exist. */
  getCheckout(sessionId: string): Promise<CheckoutInfo | null>;
  createPortal(input: { userId: string; customerId: string | null; returnUrl: string }): Promise<{ url: string }>;
  /** Verifies the signature and normalises the event; throws WebhookSignatureError when it cannot be trusted. */
  parseWebhook(rawBody: Buffer, signature: string | undefined): Promise<PaymentEvent>;
}

export interface CheckoutInfo {
  sessionId: string;
  /** Our user id, as we gave it when creating the checkout. */
  userId: string | null;
  planType: PlanType | null;
  paid: boolean;
  amountCents: number;
  currency: string;
  customerId: string | null;
  subscriptionId: string | null;
  /** For a subscription: when the paid period ends (epoch ms). */
  periodEnd: number | null;
}

export type PaymentEvent =
  | { type: 'checkout_completed'; eventId: string; checkout: CheckoutInfo }
  | {
      type: 'invoice_paid';
      eventId: string;
      invoiceId: string;
      subscriptionId: string;
      userId: string | null;
      /** "subscription_create" for the first invoice (granted by its checkout), "subscription_cycle" for renewals. */
      billingReason: string | null;
      periodEnd: number;
      amountCents: number;
      currency: string;
    }
  | {
      type: 'subscription_updated';
      eventId: string;
      subscriptionId: string;
      userId: string | null;
      periodEnd: number;
      cancelAtPeriodEnd: boolean;
      active: boolean;
    }
  | { type: 'subscription_deleted'; eventId: string; subscriptionId: string; userId: string | null; endedAt: number }
  | { type: 'ignored'; eventId: string; providerType: string };

export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError';
}
