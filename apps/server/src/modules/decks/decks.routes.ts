import { z } from 'zod';
import {
  deckSchema,
  deckSettingsResponseSchema,
  deckSummarySchema,
  deckWithCardsSchema,
  noContent,
} from '../../http/api-schemas';
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
        summary: "Change a deck's name, daily new-card limit, desired retention, exam date or read-aloud settings",
        description:
          'Any of the fields; the answer is every setting afterwards. `exam_date` is YYYY-MM-DD, today or later in ' +
          "the user's time zone (422 `exam_date_in_past`), or null to clear it. `tts` takes any of `question_lang` " +
          'and `answer_lang` (BCP-47 tags, stored canonically, or null: detected from the cards; 422 ' +
          '`invalid_language_tag`) and `auto`.',
        tags,
        params: deckIdParams,
        body: deckSettingsSchema,
        response: { 200: deckSettingsResponseSchema },
        errors: ['deck_not_found', 'exam_date_in_past', 'invalid_language_tag'],
      },
    },
    async (request) => {
      const user = currentUser(request);
      return decks.updateSettings(user.id, request.params.id, request.body, user.time_zone);
    },
  );
}
