import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../http/authenticate';
import type { SharingService } from './sharing.service';

export function sharingRoutes(app: FastifyInstance, sharing: SharingService): void {
  app.post<{ Params: { id: string } }>('/decks/:id/share', { onRequest: app.authenticate }, async (request) =>
    sharing.share(currentUser(request).id, request.params.id),
  );

  // Public: the code is the permission.
  app.get<{ Params: { code: string } }>('/shared/:code', async (request) => sharing.info(request.params.code));

  app.post<{ Params: { code: string } }>(
    '/shared/:code/import',
    { onRequest: app.authenticate },
    async (request, reply) =>
      reply.status(201).send(await sharing.import(currentUser(request).id, request.params.code)),
  );
}
