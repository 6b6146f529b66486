import { z } from 'zod';
import { deckSchema, deckSummarySchema, deckWithCardsSchema, noContent } from '../../http/api-schemas';
import { currentUser } from '../../http/authenticate';
import { deckIdParams } from '../../http/request-schemas';
import type { App } from '../../http/validation';
import { createDeckSchema, deckSettingsSchema } from './decks.schemas';
import type { DecksService } from './decks.service';

/** docs/api.md, "Decks and cards". */
export function decksRoutes(app: App, decks: DecksService): void {
  const auth = app.authenticate;
  const tags: ['Decks'] = ['Decks'];

  app.get(
    '/decks',
    {
      onRequest: auth,
      schema: {
        summary: "The user's decks",
        description: 'Every deck, oldest first, with what a session of it would show now.',
        tags,
        response: { 200: z.array(deckSummarySchema) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return decks.list(user.id, user.time_zone);
    },
  );

  app.post(
    '/decks',
    {
      onRequest: auth,
      schema: {
        summary: 'Create a deck (form field `deck_name`)',
        tags,
        consumes: 'form',
        body: createDeckSchema,
        response: { 201: deckSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await decks.create(currentUser(request).id, request.body.deck_name)),
  );

  app.get(
    '/decks/:id',
    {
      onRequest: auth,
      schema: {
        summary: 'A deck with its cards',
        tags,
        params: deckIdParams,
        response: { 200: deckWithCardsSchema },
        errors: ['deck_not_found'],
      },
    },
    async (request) => decks.get(currentUser(request).id, request.params.id),
  );

  app.delete(
    '/decks/:id',
    {
      onRequest: auth,
      schema: {
        summary: 'Delete a deck; its cards and review history go with it',
        tags,
        params: deckIdParams,
        response: { 204: noContent('Deleted') },
        errors: ['deck_not_found', 'rate_limited'],
      },
    },
    async (request, reply) => {
      await decks.delete(currentUser(request).id, request.params.id);
      return reply.status(204).send();
    },
  );

  app.put(
    '/decks/:id/settings',
    {
      onRequest: auth,
      schema: {
        summary: "Change a deck's name, daily new-card limit or desired retention",
        tags,
        params: deckIdParams,
        body: deckSettingsSchema,
        response: { 200: deckSettingsSchema },
        errors: ['deck_not_found'],
      },
    },
    async (request) => decks.updateSettings(currentUser(request).id, request.params.id, request.body),
  );
}
