import { z } from 'zod';
import { paymentSchema, planSchema } from '../../http/api-schemas';
import { currentUser } from '../../http/authenticate';
import type { App } from '../../http/validation';
import {
  checkoutUrlSchema,
  createSubscriptionSchema,
  portalLinkSchema,
  verifyResultSchema,
  verifySubscriptionSchema,
  webhookReceiptSchema,
} from './billing.schemas';
import type { BillingService } from './billing.service';
import { toPaymentView } from './payment-view';

/** docs/api.md, "Billing". */
export function billingRoutes(app: App, billing: BillingService): void {
  const tags: ['Billing'] = ['Billing'];

  app.get(
    '/api/plans',
    { schema: { summary: 'The plans on sale', tags, response: { 200: z.array(planSchema) } } },
    async () => billing.plans(),
  );

  app.post(
    '/api/create-subscription',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Start a checkout for a plan',
        description: 'Answers where to send the buyer.',
        tags,
        body: createSubscriptionSchema,
        response: { 200: checkoutUrlSchema },
        errors: ['payment_unavailable'],
      },
    },
    async (request) => billing.createCheckout(currentUser(request), request.body),
  );

  app.post(
    '/api/verify-subscription',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Confirm a checkout after the return from it (asks the payment provider; grants at most once)',
        description: 'Answers whether the payment was confirmed, in words.',
        tags,
        body: verifySubscriptionSchema,
        response: { 200: verifyResultSchema },
        errors: ['payment_unavailable'],
      },
    },
    async (request) => billing.verify(currentUser(request), request.body),
  );

  app.post(
    '/api/billing-portal',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'A link to manage the subscription',
        tags,
        response: { 200: portalLinkSchema },
        errors: ['no_billing_account', 'payment_unavailable'],
      },
    },
    async (request) => billing.portal(currentUser(request)),
  );

  app.get(
    '/api/payments',
    {
      onRequest: app.authenticate,
      schema: { summary: "The user's payments, newest first", tags, response: { 200: z.array(paymentSchema) } },
    },
    async (request) => (await billing.payments(currentUser(request).id)).map(toPaymentView),
  );

  // The provider signs the exact bytes it sent: this route keeps the raw body instead of parsing JSON.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1_048_576 }, (_request, body, done) =>
      done(null, body),
    );
    scope.post(
      '/api/payments/webhook',
      {
        schema: {
          summary: "The payment provider's signed events (raw body, `Stripe-Signature` header)",
          tags,
          response: { 200: webhookReceiptSchema },
          errors: ['invalid_signature', 'payload_too_large'],
        },
      },
      async (request) => {
        const signature = request.headers['stripe-signature'];
        return billing.webhook(request.body as Buffer, typeof signature === 'string' ? signature : undefined);
      },
    );
  });
}
