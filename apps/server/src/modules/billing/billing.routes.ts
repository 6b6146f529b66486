import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../http/authenticate';
import { parseInput } from '../../http/validation';
import { createSubscriptionSchema, verifySubscriptionSchema } from './billing.schemas';
import type { BillingService } from './billing.service';
import { toPaymentView } from './payment-view';

export function billingRoutes(app: FastifyInstance, billing: BillingService): void {
  app.get('/api/plans', async () => billing.plans());

  app.post('/api/create-subscription', { onRequest: app.authenticate }, async (request) =>
    billing.createCheckout(currentUser(request), parseInput(createSubscriptionSchema, request.body)),
  );

  app.post('/api/verify-subscription', { onRequest: app.authenticate }, async (request) =>
    billing.verify(currentUser(request), parseInput(verifySubscriptionSchema, request.body)),
  );

  app.post('/api/billing-portal', { onRequest: app.authenticate }, async (request) =>
    billing.portal(currentUser(request)),
  );

  app.get('/api/payments', { onRequest: app.authenticate }, async (request) =>
    (await billing.payments(currentUser(request).id)).map(toPaymentView),
  );

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
