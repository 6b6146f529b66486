import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../http/authenticate';
import { parseInput } from '../../http/validation';
import { cardTextSchema, deckCardsQuerySchema, saveCardsSchema, searchQuerySchema } from './cards.schemas';
import type { CardsService } from './cards.service';

type IdParams = { Params: { id: string } };

export function cardsRoutes(app: FastifyInstance, cards: CardsService): void {
  const auth = { onRequest: app.authenticate };

  app.get<IdParams>('/decks/:id/cards', auth, async (request) => {
    const query = parseInput(deckCardsQuerySchema, request.query);
    const userId = currentUser(request).id;
    if (query.limit === undefined) return cards.listByDeck(userId, request.params.id);
    return cards.pageByDeck(userId, request.params.id, query.limit, query.cursor);
  });

  app.get('/cards/search', auth, async (request) =>
    cards.search(currentUser(request).id, parseInput(searchQuerySchema, request.query)),
  );

  app.post('/save-cards', auth, async (request, reply) => {
    const input = parseInput(saveCardsSchema, request.body);
    return reply.status(201).send(await cards.save(currentUser(request).id, input.deck_id, input.cards));
  });

  app.put<IdParams>('/cards/:id', auth, async (request) => {
    const text = parseInput(cardTextSchema, request.body);
    return cards.update(currentUser(request).id, request.params.id, text);
  });

  app.delete<IdParams>('/cards/:id', auth, async (request, reply) => {
    await cards.delete(currentUser(request).id, request.params.id);
    return reply.status(204).send();
  });
}
