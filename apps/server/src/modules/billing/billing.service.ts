import { fillMessage } from '@flashcards/shared/messages';
import { findPlan, type PlanDetails, plans, toPublicPlan } from '@flashcards/shared/plans';
import { serverMessages } from '@flashcards/shared/server-messages';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../adapters/clock';
import type { IdGenerator } from '../../adapters/ids';
import {
  type CheckoutInfo,
  type PaymentEvent,
  type PaymentProvider,
  WebhookSignatureError,
} from '../../adapters/payments/payment-provider';
import { errors } from '../../http/app-error';
import type { SessionUser } from '../../http/session-user';
import type { BillingRepo } from './billing.repo';
import type { CreateSubscriptionInput, VerifySubscriptionInput } from './billing.schemas';

export interface BillingServiceDeps {
  repo: BillingRepo;
  provider: PaymentProvider;
  clock: Clock;
  newId: IdGenerator;
  publicUrl: string;
  /** Origins a checkout may return to (PUBLIC_URL and ALLOWED_ORIGINS). */
  allowedOrigins: string[];
  log: FastifyBaseLogger;
}

/**
 * A payment covers a plan when it is in the plan's currency and at least its price (taxes may come on top; a
 * discount or a tampered amount below it grants nothing).
 */
function paysFor(plan: PlanDetails, amountCents: number, currency: string): boolean {
  return (
    currency.toLowerCase() === plan.currency && Number.isSafeInteger(amountCents) && amountCents >= plan.amountCents
  );
}

/**
 * Plans, checkout, verification, the billing portal and fulfilment. Every grant is explained by a payment the
 * provider vouches for, and is applied once per payment (see BillingRepo.grantOnce).
 */
export function createBillingService(deps: BillingServiceDeps) {
  const { repo, provider, clock } = deps;

  /** `base_url` only when it is one of our public origins; otherwise our own. Never a redirect from the request alone. */
  function returnOrigin(baseUrl: unknown): string {
    if (typeof baseUrl === 'string') {
      try {
        const origin = new URL(baseUrl).origin;
        if (deps.allowedOrigins.includes(origin)) return origin;
      } catch {
        // not a URL: ignored
      }
    }
    return deps.publicUrl;
  }

  async function grantCheckout(checkout: CheckoutInfo, eventId: string | null): Promise<boolean> {
    const plan = checkout.planType ? findPlan(checkout.planType) : undefined;
    if (!checkout.paid || !checkout.userId || !plan) return false;
    if (!paysFor(plan, checkout.amountCents, checkout.currency)) {
      deps.log.warn(
        { session: checkout.sessionId, plan: plan.planType, amount: checkout.amountCents, currency: checkout.currency },
        'checkout paid less than its plan costs: nothing granted',
      );
      return false;
    }
    const userId = checkout.userId;
    const now = clock.now();
    const granted = await repo.grantOnce(
      {
        id: deps.newId(),
        user_id: userId,
        provider: provider.name,
        provider_payment_id: checkout.sessionId,
        kind: 'checkout',
        plan_type: plan.planType,
        amount_cents: checkout.amountCents,
        currency: checkout.currency,
        status: 'paid',
        generations_granted: plan.generations,
        provider_event_id: eventId,
        created_at: now,
      },
      async (trx) => {
        if (plan.kind === 'pack') {
          await repo.addPurchasedGenerations(trx, userId, plan.generations, plan.planType, now);
        } else {
          await repo.startSubscriptionPeriod(
            trx,
            userId,
            {
              quota: plan.generations,
              periodEnd: checkout.periodEnd ?? now + 30 * 24 * 60 * 60 * 1000,
              subscriptionId: checkout.subscriptionId,
              customerId: checkout.customerId,
            },
            now,
          );
        }
      },
    );
    if (checkout.customerId) await repo.setCustomer(userId, checkout.customerId);
    deps.log.info({ userId, plan: plan.planType, session: checkout.sessionId, granted }, 'checkout fulfilled');
    return granted;
  }

  /**
   * The user a subscription event is about: only a subscription a checkout of ours recorded. The user id in the
   * event's metadata is never enough on its own (an event for an unknown subscription grants and changes nothing).
   */
  async function userOf(subscriptionId: string, _metadataUserId: string | null): Promise<string | null> {
    return (await repo.findUserBySubscription(subscriptionId))?.id ?? null;
  }

  async function handleEvent(event: PaymentEvent): Promise<void> {
    const now = clock.now();
    switch (event.type) {
      case 'checkout_completed':
        await grantCheckout(event.checkout, event.eventId);
        return;
      case 'invoice_paid': {
        // The first invoice of a subscription is paid through its checkout, which grants it.
        if (event.billingReason === 'subscription_create') return;
        const userId = await userOf(event.subscriptionId, event.userId);
        const plan = findPlan('monthly') as PlanDetails;
        if (!userId) {
          deps.log.warn({ subscription: event.subscriptionId }, 'renewal for an unknown subscription');
          return;
        }
        if (!paysFor(plan, event.amountCents, event.currency)) {
          deps.log.warn({ invoice: event.invoiceId, amount: event.amountCents }, 'renewal paid less than the plan');
          return;
        }
        await repo.grantOnce(
          {
            id: deps.newId(),
            user_id: userId,
            provider: provider.name,
            provider_payment_id: event.invoiceId,
            kind: 'renewal',
            plan_type: plan.planType,
            amount_cents: event.amountCents,
            currency: event.currency,
            status: 'paid',
            generations_granted: plan.generations,
            provider_event_id: event.eventId,
            created_at: now,
          },
          (trx) =>
            repo
              .startSubscriptionPeriod(
                trx,
                userId,
                {
                  quota: plan.generations,
                  periodEnd: event.periodEnd,
                  subscriptionId: event.subscriptionId,
                  customerId: null,
                },
                now,
              )
              .then(() => undefined),
        );
        return;
      }
      case 'subscription_updated': {
        const userId = await userOf(event.subscriptionId, event.userId);
        if (userId) {
          await repo.updateSubscription(
            userId,
            event.subscriptionId,
            {
              periodEnd: event.active ? event.periodEnd : Math.min(event.periodEnd, now),
              cancelAtPeriodEnd: event.cancelAtPeriodEnd,
            },
            now,
          );
        }
        return;
      }
      case 'subscription_deleted': {
        const userId = await userOf(event.subscriptionId, event.userId);
        if (userId) await repo.endSubscription(userId, event.subscriptionId, event.endedAt, now);
        return;
      }
      case 'ignored':
        return;
    }
  }

  /** Calls the provider; its failures become a 502 the user can read. */
  async function callProvider<T>(action: () => Promise<T>): Promise<T> {
    try {
      return await action();
    } catch (error) {
      deps.log.error({ err: error }, 'payment provider call failed');
      throw errors.paymentUnavailable();
    }
  }

  return {
    plans: () => plans.map(toPublicPlan),

    async createCheckout(user: SessionUser, input: CreateSubscriptionInput) {
      const plan = findPlan(input.plan_type);
      if (!plan) throw errors.validationFailed({ message: 'unknownPlan' });
      const origin = returnOrigin(input.base_url);
      const successUrl = `${origin}/account?success=true&plan=${plan.planType}&session_id={CHECKOUT_SESSION_ID}`;
      const billing = await repo.findBillingFields(user.id);
      const session = await callProvider(() =>
        provider.createCheckout({
          userId: user.id,
          email: user.email,
          plan,
          successUrl,
          cancelUrl: `${origin}/account?canceled=true`,
          customerId: billing?.billing_customer_id ?? null,
        }),
      );
      await repo.recordCheckout({
        id: deps.newId(),
        user_id: user.id,
        provider: provider.name,
        provider_session_id: session.sessionId,
        plan_type: plan.planType,
        created_at: clock.now(),
      });
      return { checkout_url: session.url };
    },

    /**
     * Confirms a payment after the return from checkout. Only a checkout this user started counts, and only when
     * the provider says it was paid; the email and name in the request are never trusted.
     */
    async verify(user: SessionUser, input: VerifySubscriptionInput) {
      const planType = input.plan_type;
      const failed = {
        success: false,
        message: fillMessage(serverMessages.verifyFailed, { plan: planType || 'unknown' }),
      };
      const plan = findPlan(planType);
      if (!plan) return failed;
      const sessionId = input.session_id || undefined;
      const started = await repo.findCheckout(user.id, provider.name, sessionId ? { sessionId } : { planType });
      if (!started || started.plan_type !== plan.planType) return failed;
      const checkout = await callProvider(() => provider.getCheckout(started.provider_session_id));
      if (!checkout?.paid || checkout.userId !== user.id) return failed;
      await grantCheckout(checkout, null);
      const message =
        plan.kind === 'pack'
          ? fillMessage(serverMessages.packPurchased, { generations: plan.generations })
          : fillMessage(serverMessages.subscriptionActive, { generations: plan.generations });
      return { success: true, message };
    },

    async portal(user: SessionUser) {
      const billing = await repo.findBillingFields(user.id);
      if (provider.name === 'stripe' && !billing?.billing_customer_id) {
        throw errors.noBillingAccount();
      }
      return callProvider(() =>
        provider.createPortal({
          userId: user.id,
          customerId: billing?.billing_customer_id ?? null,
          returnUrl: `${deps.publicUrl}/account`,
        }),
      );
    },

    async webhook(rawBody: Buffer, signature: string | undefined) {
      let event: PaymentEvent;
      try {
        event = await provider.parseWebhook(rawBody, signature);
      } catch (error) {
        if (error instanceof WebhookSignatureError) {
          throw errors.invalidSignature();
        }
        throw error;
      }
      await handleEvent(event);
      return { received: true };
    },

    handleEvent,
    payments: (userId: string) => repo.listPayments(userId),
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
