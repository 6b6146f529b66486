import { subscriptionStatusSchema } from '../../http/api-schemas';
import { currentUser } from '../../http/authenticate';
import type { App } from '../../http/validation';
import type { QuotaService } from './quota.service';

/** docs/api.md, "Billing". */
export function quotaRoutes(app: App, quota: QuotaService): void {
  app.get(
    '/api/subscription-status',
    {
      onRequest: app.authenticate,
      schema: {
        summary: "The user's plan, quotas and what the next generation may draw on",
        tags: ['Billing'],
        response: { 200: subscriptionStatusSchema },
      },
    },
    async (request) => quota.status(currentUser(request).id),
  );
}
