import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../http/authenticate';
import { readFormFields } from '../../http/form-fields';
import { parseInput } from '../../http/validation';
import { createDeckSchema, deckSettingsSchema } from './decks.schemas';
import type { DecksService } from './decks.service';

type IdParams = { Params: { id: string } };

export function decksRoutes(app: FastifyInstance, decks: DecksService): void {
  const auth = { onRequest: app.authenticate };

  app.get('/decks', auth, async (request) => {
    const user = currentUser(request);
    return decks.list(user.id, user.time_zone);
  });

  app.post('/decks', auth, async (request, reply) => {
    const { deck_name } = parseInput(createDeckSchema, await readFormFields(request));
    return reply.status(201).send(await decks.create(currentUser(request).id, deck_name));
  });

  app.get<IdParams>('/decks/:id', auth, async (request) => decks.get(currentUser(request).id, request.params.id));

  app.delete<IdParams>('/decks/:id', auth, async (request, reply) => {
    await decks.delete(currentUser(request).id, request.params.id);
    return reply.status(204).send();
  });

  app.put<IdParams>('/decks/:id/settings', auth, async (request) => {
    const settings = parseInput(deckSettingsSchema, request.body);
    return decks.updateSettings(currentUser(request).id, request.params.id, settings);
  });
}
