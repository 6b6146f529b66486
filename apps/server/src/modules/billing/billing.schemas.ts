import { messages } from '@flashcards/shared/messages';
import { z } from 'zod';
import { paymentSchema, planSchema } from '../../http/api-schemas';
import { type ApiPaths, json, operation } from '../../http/openapi-legacy';

/** Plan types and session ids are short tokens; anything longer is not one of ours. */
const maxTokenLength = 200;
const optionalText = (max: number) => z.string({ error: messages.validationFailed }).max(max).optional();

/** POST /api/create-subscription: `plan_type` (checked against the plans by the service) and an optional `base_url`. */
export const createSubscriptionSchema = z.object({
  plan_type: z.string({ error: messages.unknownPlan }).max(maxTokenLength, { error: messages.unknownPlan }).default(''),
  base_url: optionalText(2048),
});

/**
 * POST /api/verify-subscription. `customer_email` and `customer_name` are accepted for the web app's sake and
 * ignored: nothing is granted on the client's word (docs/api.md).
 */
export const verifySubscriptionSchema = z.object({
  plan_type: z.string({ error: messages.unknownPlan }).max(maxTokenLength, { error: messages.unknownPlan }).default(''),
  session_id: optionalText(maxTokenLength),
  customer_email: optionalText(1024),
  customer_name: optionalText(1024),
});

export type CreateSubscriptionInput = z.output<typeof createSubscriptionSchema>;
export type VerifySubscriptionInput = z.output<typeof verifySubscriptionSchema>;

const html = (description: string) => ({ status: 200, description, schema: z.string(), contentType: 'text/html' });
const checkoutParams = z.object({ id: z.string().meta({ description: 'The checkout session id' }) });
const portalParams = z.object({ token: z.string().meta({ description: 'The one-hour portal link token' }) });

/** docs/api.md, "Billing". The /test-* pages exist only in local payment mode (no STRIPE_SECRET_KEY). */
export const billingPaths: ApiPaths = {
  '/api/plans': {
    get: operation({
      summary: 'The plans on sale',
      tags: ['Billing'],
      success: { status: 200, description: 'Every plan', schema: z.array(planSchema) },
    }),
  },
  '/api/create-subscription': {
    post: operation({
      summary: 'Start a checkout for a plan',
      tags: ['Billing'],
      auth: true,
      body: json(createSubscriptionSchema),
      success: {
        status: 200,
        description: 'Where to send the buyer',
        schema: z.object({ checkout_url: z.string() }),
      },
      errors: ['payment_unavailable'],
    }),
  },
  '/api/verify-subscription': {
    post: operation({
      summary: 'Confirm a checkout after the return from it (asks the payment provider; grants at most once)',
      tags: ['Billing'],
      auth: true,
      body: json(verifySubscriptionSchema),
      success: {
        status: 200,
        description: 'Whether the payment was confirmed, in words',
        schema: z.object({ success: z.boolean(), message: z.string() }),
      },
      errors: ['payment_unavailable'],
    }),
  },
  '/api/billing-portal': {
    post: operation({
      summary: 'A link to manage the subscription',
      tags: ['Billing'],
      auth: true,
      success: { status: 200, description: 'The portal link', schema: z.object({ url: z.string() }) },
      errors: ['no_billing_account', 'payment_unavailable'],
    }),
  },
  '/api/payments': {
    get: operation({
      summary: "The user's payments, newest first",
      tags: ['Billing'],
      auth: true,
      success: { status: 200, description: 'The payments', schema: z.array(paymentSchema) },
    }),
  },
  '/api/payments/webhook': {
    post: operation({
      summary: "The payment provider's signed events (raw body, `Stripe-Signature` header)",
      tags: ['Billing'],
      success: { status: 200, description: 'Recorded', schema: z.object({ received: z.literal(true) }) },
      errors: ['invalid_signature', 'payload_too_large'],
    }),
  },
  '/test-checkout/{id}': {
    get: operation({
      summary: 'Local payment mode: the checkout page',
      tags: ['Local payments'],
      params: checkoutParams,
      success: html('The page'),
      errors: ['checkout_not_found'],
    }),
  },
  '/test-checkout/{id}/pay': {
    post: operation({
      summary: 'Local payment mode: pay (fulfils as a webhook would), then back to the app',
      tags: ['Local payments'],
      params: checkoutParams,
      success: { status: 303, description: 'Redirect to the success URL' },
      errors: ['checkout_not_found'],
    }),
  },
  '/test-billing/{token}': {
    get: operation({
      summary: 'Local payment mode: the subscription page',
      tags: ['Local payments'],
      params: portalParams,
      success: html('The page'),
      errors: ['not_found'],
    }),
  },
  '/test-billing/{token}/renew': {
    post: operation({
      summary: "Local payment mode: simulate the monthly plan's next renewal",
      tags: ['Local payments'],
      params: portalParams,
      success: { status: 303, description: 'Redirect to the subscription page' },
      errors: ['not_found'],
    }),
  },
  '/test-billing/{token}/cancel': {
    post: operation({
      summary: 'Local payment mode: cancel the monthly plan at the period end',
      tags: ['Local payments'],
      params: portalParams,
      success: { status: 303, description: 'Redirect to the subscription page' },
      errors: ['not_found'],
    }),
  },
};
