import { findPlan } from '@flashcards/shared/plans';
import { serverMessages } from '@flashcards/shared/server-messages';
import type { FastifyReply } from 'fastify';
import type { LocalPaymentProvider } from '../../adapters/payments/local-payment-provider';
import { noContent, nonJson } from '../../http/api-schemas';
import { errors } from '../../http/app-error';
import type { App } from '../../http/validation';
import { checkoutParams, portalParams } from './billing.schemas';
import type { BillingService } from './billing.service';

/**
 * The local test mode's hosted pages (what Stripe Checkout and the Billing Portal are in live mode). Paying,
 * renewing and cancelling here feed the same events to the same fulfilment code as a real webhook. They exist only
 * in local payment mode (no STRIPE_SECRET_KEY).
 */
export function localCheckoutRoutes(app: App, provider: LocalPaymentProvider, billing: BillingService): void {
  const tags: ['Local payments'] = ['Local payments'];
  const page200 = { 200: nonJson('text/html', 'The page') };

  app.get(
    '/test-checkout/:id',
    {
      schema: {
        summary: 'Local payment mode: the checkout page',
        tags,
        params: checkoutParams,
        response: page200,
        errors: ['checkout_not_found'],
      },
    },
    async (request, reply) => {
      const session = await provider.findSession(request.params.id);
      const plan = session ? findPlan(session.plan_type) : undefined;
      if (!session || !plan) throw errors.checkoutNotFound();
      const paid = session.status === 'paid';
      return page(
        reply,
        'Checkout (test mode)',
        `<h1>${escapeHtml(plan.name)}</h1>
      <p class="price">$${(plan.amountCents / 100).toFixed(2)}${plan.kind === 'subscription' ? ' per month' : ' once'}</p>
      <p>${escapeHtml(plan.description)}</p>
      <ul>${plan.features.map((feature) => `<li>${escapeHtml(feature)}</li>`).join('')}</ul>
      ${
        paid
          ? `<p><strong>Paid.</strong> <a href="${escapeHtml(session.success_url)}">Return to the app</a></p>`
          : `<form method="post" action="/test-checkout/${escapeHtml(session.id)}/pay"><button type="submit">Pay $${(plan.amountCents / 100).toFixed(2)}</button></form>
      <p><a href="${escapeHtml(session.cancel_url)}">Cancel and return</a></p>`
      }`,
      );
    },
  );

  app.post(
    '/test-checkout/:id/pay',
    {
      schema: {
        summary: 'Local payment mode: pay (fulfils as a webhook would), then back to the app',
        tags,
        params: checkoutParams,
        response: { 303: noContent('Redirect to the success URL') },
        errors: ['checkout_not_found'],
      },
    },
    async (request, reply) => {
      const event = await provider.pay(request.params.id);
      const session = await provider.findSession(request.params.id);
      if (!event || !session) throw errors.checkoutNotFound();
      await billing.handleEvent(event);
      return reply.redirect(session.success_url, 303);
    },
  );

  app.get(
    '/test-billing/:token',
    {
      schema: {
        summary: 'Local payment mode: the subscription page',
        tags,
        params: portalParams,
        response: page200,
        errors: ['not_found'],
      },
    },
    async (request, reply) => {
      const userId = await provider.portalUser(request.params.token);
      if (!userId) throw errors.notFound();
      const subscription = await provider.findSubscription(userId);
      const action = (name: string, label: string) =>
        `<form method="post" action="/test-billing/${escapeHtml(request.params.token)}/${name}"><button type="submit">${label}</button></form>`;
      const status = !subscription
        ? '<p>You have no subscription. Packs you bought never expire.</p>'
        : `<p>Monthly subscription: ${subscription.cancel_at_period_end ? 'cancelled, access until' : 'renews on'} <strong>${new Date(subscription.current_period_end).toUTCString()}</strong>.</p>
        ${subscription.cancel_at_period_end ? '' : action('renew', 'Simulate the next renewal') + action('cancel', 'Cancel subscription')}`;
      return page(
        reply,
        'Manage subscription (test mode)',
        `<h1>Manage subscription</h1>${status}<p><a href="/account">Back to your account</a></p>`,
      );
    },
  );

  const actions = {
    renew: "Local payment mode: simulate the monthly plan's next renewal",
    cancel: 'Local payment mode: cancel the monthly plan at the period end',
  };
  for (const name of ['renew', 'cancel'] as const) {
    app.post(
      `/test-billing/:token/${name}`,
      {
        schema: {
          summary: actions[name],
          tags,
          params: portalParams,
          response: { 303: noContent('Redirect to the subscription page') },
          errors: ['not_found'],
        },
      },
      async (request, reply) => {
        const userId = await provider.portalUser(request.params.token);
        if (!userId) throw errors.notFound();
        const event = name === 'renew' ? await provider.renew(userId) : await provider.cancel(userId);
        if (event) await billing.handleEvent(event);
        return reply.redirect(`/test-billing/${request.params.token}`, 303);
      },
    );
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function page(reply: FastifyReply, title: string, body: string): FastifyReply {
  return reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1f2937}
.notice{background:#fef3c7;border:1px solid #f59e0b;padding:.75rem 1rem;border-radius:.5rem}
.price{font-size:2rem;font-weight:700;margin:.5rem 0}button{font-size:1rem;padding:.6rem 1.2rem;border-radius:.4rem;
border:0;background:#4f46e5;color:#fff;cursor:pointer;margin:.25rem 0}button:focus-visible,a:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
a{color:#3730a3}</style></head>
<body><p class="notice" role="note">${escapeHtml(serverMessages.testModeNotice)}</p>${body}</body></html>`);
}
