import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../http/authenticate';
import type { SchedulingService } from './scheduling.service';

export function schedulingRoutes(app: FastifyInstance, scheduling: SchedulingService): void {
  const auth = { onRequest: app.authenticate };

  app.get('/scheduling', auth, async (request) => scheduling.info(currentUser(request)));

  app.post('/scheduling/optimize', auth, async (request) => scheduling.optimize(currentUser(request)));

  app.delete('/scheduling/parameters', auth, async (request, reply) => {
    await scheduling.reset(currentUser(request));
    return reply.status(204).send();
  });
}
