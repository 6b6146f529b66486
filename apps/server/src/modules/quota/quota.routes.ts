import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../http/authenticate';
import type { QuotaService } from './quota.service';

export function quotaRoutes(app: FastifyInstance, quota: QuotaService): void {
  app.get('/api/subscription-status', { onRequest: app.authenticate }, async (request) =>
    quota.status(currentUser(request).id),
  );
}
