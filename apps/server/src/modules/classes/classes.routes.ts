import Papa from 'papaparse';
import { classDetailSchema, classProgressSchema, classSummarySchema, noContent, nonJson } from '../../http/api-schemas';
import { currentUser } from '../../http/authenticate';
import type { App } from '../../http/validation';
import {
  assignDeckSchema,
  classIdParams,
  createClassSchema,
  joinClassSchema,
  memberParams,
  progressCsvQuery,
} from './classes.schemas';
import type { ClassesService } from './classes.service';

/** docs/api.md, "Classes". */
export function classesRoutes(app: App, classes: ClassesService): void {
  const tags: ['Classes'] = ['Classes'];

  app.post(
    '/classes',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Create a class; the caller is its teacher',
        tags,
        body: createClassSchema,
        response: { 201: classSummarySchema },
        errors: ['too_many_classes'],
      },
    },
    async (request, reply) => reply.status(201).send(await classes.create(currentUser(request).id, request.body.name)),
  );

  app.get(
    '/classes',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'The classes the caller teaches or attends',
        tags,
        response: { 200: classSummarySchema.array() },
      },
    },
    async (request) => classes.list(currentUser(request).id),
  );

  app.post(
    '/classes/join',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Join a class by its code; its decks become linked copies in the caller’s account',
        tags,
        body: joinClassSchema,
        response: { 200: classSummarySchema },
        errors: [
          'class_not_found',
          'already_member',
          'class_full',
          'too_many_classes',
          'too_many_decks',
          'too_many_cards',
        ],
      },
    },
    async (request) => classes.join(currentUser(request).id, request.body.join_code),
  );

  app.get(
    '/classes/:id',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'One class; the teacher also sees its students',
        tags,
        params: classIdParams,
        response: { 200: classDetailSchema },
        errors: ['class_not_found'],
      },
    },
    async (request) => classes.get(currentUser(request).id, request.params.id),
  );

  app.post(
    '/classes/:id/decks',
    {
      onRequest: app.authenticate,
      schema: {
        summary: "Assign one of the teacher's decks: every student, now and later, gets a linked copy",
        tags,
        params: classIdParams,
        body: assignDeckSchema,
        response: { 201: classSummarySchema },
        errors: ['class_not_found', 'deck_not_found', 'deck_already_assigned', 'linked_deck_read_only'],
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await classes.assignDeck(currentUser(request).id, request.params.id, request.body.deck_id)),
  );

  app.get(
    '/classes/:id/progress',
    {
      onRequest: app.authenticate,
      schema: {
        summary: "The students' progress and the cards the class forgets, hardest first (teacher only)",
        tags,
        params: classIdParams,
        response: { 200: classProgressSchema },
        errors: ['class_not_found'],
      },
    },
    async (request) => classes.progress(currentUser(request).id, request.params.id),
  );

  app.get(
    '/classes/:id/progress.csv',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'One table of the class progress as CSV: `table=students` (default) or `table=cards` (teacher only)',
        tags,
        params: classIdParams,
        querystring: progressCsvQuery,
        response: { 200: nonJson('text/csv', 'The table, a header row first (Content-Disposition: attachment)') },
        errors: ['class_not_found'],
      },
    },
    async (request, reply) => {
      const progress = await classes.progress(currentUser(request).id, request.params.id);
      const { table } = request.query;
      const csv =
        table === 'cards'
          ? Papa.unparse(progress.cards, {
              escapeFormulae: true,
              columns: ['card_id', 'question', 'reviews', 'failed', 'fail_rate'],
            })
          : Papa.unparse(progress.students, {
              escapeFormulae: true,
              columns: ['user_id', 'name', 'email', 'cards_studied', 'reviews_7d', 'retention_30d', 'last_active'],
            });
      return reply
        .type('text/csv; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="class-${table}.csv"`)
        .send(`${csv}\r\n`);
    },
  );

  app.delete(
    '/classes/:id/members/:user_id',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Remove a student (teacher only); their copies become ordinary decks of theirs',
        tags,
        params: memberParams,
        response: { 204: noContent('Removed') },
        errors: ['class_not_found', 'member_not_found'],
      },
    },
    async (request, reply) => {
      await classes.removeStudent(currentUser(request).id, request.params.id, request.params.user_id);
      return reply.status(204).send();
    },
  );

  app.delete(
    '/classes/:id/membership',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Leave a class (student); the copies become ordinary decks of the student',
        tags,
        params: classIdParams,
        response: { 204: noContent('Left') },
        errors: ['class_not_found'],
      },
    },
    async (request, reply) => {
      await classes.leave(currentUser(request).id, request.params.id);
      return reply.status(204).send();
    },
  );
}
