import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../http/authenticate';
import { parseInput } from '../../http/validation';
import type { BillingService } from './billing.service';

const createSubscriptionSchema = z.object({ plan_type: z.string().default(''), base_url: z.unknown().optional() });
const verifySchema = z.object({
  plan_type: z.unknown().optional(),
  session_id: z.unknown().optional(),
  // Accepted for compatibility with the web app and ignored: nothing is granted on the client's word.
  customer_email: z.unknown().optional(),
  customer_name: z.unknown().optional(),
});

export function billingRoutes(app: FastifyInstance, billing: BillingService): void {
  app.get('/api/plans', async () => billing.plans());

  app.post('/api/create-subscription', { onRequest: app.authenticate }, async (request) =>
    billing.createCheckout(currentUser(request), parseInput(createSubscriptionSchema, request.body)),
  );

  app.post('/api/verify-subscription', { onRequest: app.authenticate }, async (request) =>
    billing.verify(currentUser(request), parseInput(verifySchema, request.body)),
  );

  app.post('/api/billing-portal', { onRequest: app.authenticate }, async (request) =>
    billing.portal(currentUser(request)),
  );

  app.get('/api/payments', { onRequest: app.authenticate }, async (request) => {
    const rows = await billing.payments(currentUser(request).id);
    return rows.map((row) => ({
      _id: row.id,
      plan_type: row.plan_type,
      kind: row.kind,
      amount: row.amount_cents / 100,
      currency: row.currency,
      status: row.status,
      generations_granted: row.generations_granted,
      created_at: new Date(row.created_at).toISOString(),
    }));
  });

  // The provider signs the exact bytes it sent: this route keeps the raw body instead of parsing JSON.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1_048_576 }, (_request, body, done) =>
      done(null, body),
    );
    scope.post('/api/payments/webhook', async (request) => {
      const signature = request.headers['stripe-signature'];
      return billing.webhook(request.body as Buffer, typeof signature === 'string' ? signature : undefined);
    });
  });
}
