import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../http/authenticate';
import type { FsrsFittingService } from './fsrs-fitting.service';

export function fsrsFittingRoutes(app: FastifyInstance, scheduling: FsrsFittingService): void {
  const auth = { onRequest: app.authenticate };

  app.get('/scheduling', auth, async (request) => scheduling.info(currentUser(request)));

  app.post('/scheduling/optimize', auth, async (request, reply) => {
    // A client that leaves stops its fit (the fit's process is killed).
    const left = new AbortController();
    const onClose = () => {
      if (!reply.raw.writableFinished) left.abort();
    };
    reply.raw.once('close', onClose);
    try {
      return await scheduling.optimize(currentUser(request), left.signal);
    } finally {
      reply.raw.off('close', onClose);
    }
  });

  app.delete('/scheduling/parameters', auth, async (request, reply) => {
    await scheduling.reset(currentUser(request));
    return reply.status(204).send();
  });
}
