import { cardSchema, noContent } from '../../http/api-schemas';
import { currentUser } from '../../http/authenticate';
import { cardIdParams, deckIdParams } from '../../http/request-schemas';
import type { App } from '../../http/validation';
import {
  cardTextSchema,
  deckCardsQuerySchema,
  deckCardsResponseSchema,
  saveCardsSchema,
  savedCardsSchema,
  searchQuerySchema,
  searchResponseSchema,
} from './cards.schemas';
import type { CardsService } from './cards.service';

/** docs/api.md, "Decks and cards". */
export function cardsRoutes(app: App, cards: CardsService): void {
  const auth = app.authenticate;
  const tags: ['Cards'] = ['Cards'];

  app.get(
    '/decks/:id/cards',
    {
      onRequest: auth,
      schema: {
        summary: "A deck's cards, in creation order",
        description:
          'Without `limit`: the first 500 cards as a plain array. With `limit` (and `cursor` from the previous ' +
          'page): one page with `next_cursor`.',
        tags,
        params: deckIdParams,
        querystring: deckCardsQuerySchema,
        response: { 200: deckCardsResponseSchema },
        errors: ['deck_not_found'],
      },
    },
    async (request) => {
      const { limit, cursor } = request.query;
      const userId = currentUser(request).id;
      if (limit === undefined) return cards.listByDeck(userId, request.params.id);
      return cards.pageByDeck(userId, request.params.id, limit, cursor);
    },
  );

  app.get(
    '/cards/search',
    {
      onRequest: auth,
      schema: {
        summary: 'Cards whose question or answer contain every word of `q` (prefixes match), best first',
        tags,
        querystring: searchQuerySchema,
        response: { 200: searchResponseSchema },
        errors: ['deck_not_found', 'rate_limited'],
      },
    },
    async (request) => cards.search(currentUser(request).id, request.query),
  );

  app.post(
    '/save-cards',
    {
      onRequest: auth,
      schema: {
        summary: 'Save cards or notes into a deck, all or nothing',
        description:
          'Items `{ question, answer }` (a basic note) or `{ type, fields, source? }`; `saved` counts cards.',
        tags,
        body: saveCardsSchema,
        response: { 201: savedCardsSchema },
        errors: ['deck_not_found', 'too_many_cards'],
      },
    },
    async (request, reply) =>
      reply.status(201).send(await cards.save(currentUser(request).id, request.body.deck_id, request.body.cards)),
  );

  app.put(
    '/cards/:id',
    {
      onRequest: auth,
      schema: {
        summary: "Edit a basic card's question and answer (its note's front and back)",
        tags,
        params: cardIdParams,
        body: cardTextSchema,
        response: { 200: cardSchema },
        errors: ['card_not_found', 'edit_note_instead'],
      },
    },
    async (request) => cards.update(currentUser(request).id, request.params.id, request.body),
  );

  app.delete(
    '/cards/:id',
    {
      onRequest: auth,
      schema: {
        summary: 'Delete a card and its review history; a note left without cards goes too',
        tags,
        params: cardIdParams,
        response: { 204: noContent('Deleted') },
        errors: ['card_not_found'],
      },
    },
    async (request, reply) => {
      await cards.delete(currentUser(request).id, request.params.id);
      return reply.status(204).send();
    },
  );

  app.delete(
    '/cards/:id/source',
    {
      onRequest: auth,
      schema: {
        summary: "Delete an AI card's source (its quote, page or slide); its note's other cards lose it too",
        tags,
        params: cardIdParams,
        response: { 204: noContent('Deleted') },
        errors: ['card_not_found'],
      },
    },
    async (request, reply) => {
      await cards.deleteSource(currentUser(request).id, request.params.id);
      return reply.status(204).send();
    },
  );
}
