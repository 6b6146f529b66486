import { noContent, noteSchema, noteWithCardsSchema } from '../../http/api-schemas';
import { currentUser } from '../../http/authenticate';
import type { App } from '../../http/validation';
import { createNoteSchema, noteIdParams, updateNoteSchema } from './notes.schemas';
import type { NotesService } from './notes.service';

/** docs/api.md, "Notes and card types". */
export function notesRoutes(app: App, notes: NotesService): void {
  const auth = app.authenticate;
  const tags: ['Notes'] = ['Notes'];

  app.post(
    '/notes',
    {
      onRequest: auth,
      schema: {
        summary: 'Write a note (basic, reversed or cloze) into a deck; it makes its cards',
        tags,
        body: createNoteSchema,
        response: { 201: noteWithCardsSchema },
        errors: ['deck_not_found', 'too_many_cards'],
      },
    },
    async (request, reply) => reply.status(201).send(await notes.create(currentUser(request).id, request.body)),
  );

  app.get(
    '/notes/:id',
    {
      onRequest: auth,
      schema: {
        summary: 'A note',
        tags,
        params: noteIdParams,
        response: { 200: noteSchema },
        errors: ['note_not_found'],
      },
    },
    async (request) => notes.get(currentUser(request).id, request.params.id),
  );

  app.put(
    '/notes/:id',
    {
      onRequest: auth,
      schema: {
        summary: "Change a note's fields: cards still made keep their history, others go, new ones are added",
        tags,
        params: noteIdParams,
        body: updateNoteSchema,
        response: { 200: noteWithCardsSchema },
        errors: ['note_not_found', 'too_many_cards'],
      },
    },
    async (request) => notes.update(currentUser(request).id, request.params.id, request.body.fields),
  );

  app.delete(
    '/notes/:id',
    {
      onRequest: auth,
      schema: {
        summary: 'Delete a note, its cards and their review history',
        tags,
        params: noteIdParams,
        response: { 204: noContent('Deleted') },
        errors: ['note_not_found'],
      },
    },
    async (request, reply) => {
      await notes.delete(currentUser(request).id, request.params.id);
      return reply.status(204).send();
    },
  );
}
