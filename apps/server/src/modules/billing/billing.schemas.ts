import { serverMessages } from '@flashcards/shared/server-messages';
import { z } from 'zod';

/** Plan types and session ids are short tokens; anything longer is not one of ours. */
const maxTokenLength = 200;
const optionalText = (max: number) => z.string({ error: serverMessages.validationFailed }).max(max).optional();

/** POST /api/create-subscription: `plan_type` (checked against the plans by the service) and an optional `base_url`. */
export const createSubscriptionSchema = z.object({
  plan_type: z
    .string({ error: serverMessages.unknownPlan })
    .max(maxTokenLength, { error: serverMessages.unknownPlan })
    .default(''),
  base_url: optionalText(2048),
});

/**
 * POST /api/verify-subscription. `customer_email` and `customer_name` are accepted for the web app's sake and
 * ignored: nothing is granted on the client's word (docs/api.md).
 */
export const verifySubscriptionSchema = z.object({
  plan_type: z
    .string({ error: serverMessages.unknownPlan })
    .max(maxTokenLength, { error: serverMessages.unknownPlan })
    .default(''),
  session_id: optionalText(maxTokenLength),
  customer_email: optionalText(1024),
  customer_name: optionalText(1024),
});

export type CreateSubscriptionInput = z.output<typeof createSubscriptionSchema>;
export type VerifySubscriptionInput = z.output<typeof verifySubscriptionSchema>;

export const checkoutUrlSchema = z.object({ checkout_url: z.string() });
export const verifyResultSchema = z.object({ success: z.boolean(), message: z.string() });
export const portalLinkSchema = z.object({ url: z.string() });
export const webhookReceiptSchema = z.object({ received: z.literal(true) });

/** The local payment mode's pages (local-checkout.routes.ts). */
export const checkoutParams = z.object({ id: z.string().meta({ description: 'The checkout session id' }) });
export const portalParams = z.object({ token: z.string().meta({ description: 'The one-hour portal link token' }) });
