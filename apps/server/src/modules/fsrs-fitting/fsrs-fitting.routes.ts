import { noContent } from '../../http/api-schemas';
import { currentUser } from '../../http/authenticate';
import type { App } from '../../http/validation';
import { optimizeResponseSchema, schedulingInfoSchema } from './fsrs-fitting.schemas';
import type { FsrsFittingService } from './fsrs-fitting.service';

/** docs/api.md, "Personal scheduling". */
export function fsrsFittingRoutes(app: App, scheduling: FsrsFittingService): void {
  const auth = app.authenticate;
  const tags: ['Scheduling'] = ['Scheduling'];

  app.get(
    '/scheduling',
    {
      onRequest: auth,
      schema: {
        summary: 'Whether scheduling uses parameters fitted to the user, and how many reviews there are',
        tags,
        response: { 200: schedulingInfoSchema },
      },
    },
    async (request) => scheduling.info(currentUser(request)),
  );

  app.post(
    '/scheduling/optimize',
    {
      onRequest: auth,
      schema: {
        summary: "Fit FSRS parameters to the user's review log",
        description: 'The fit and its log loss before and after.',
        tags,
        response: { 200: optimizeResponseSchema },
        errors: [
          'not_enough_reviews',
          'optimize_in_progress',
          'rate_limited',
          'optimize_busy',
          'optimize_timeout',
          'optimize_failed',
        ],
      },
    },
    async (request, reply) => {
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
    },
  );

  app.delete(
    '/scheduling/parameters',
    {
      onRequest: auth,
      schema: { summary: 'Back to the default parameters', tags, response: { 204: noContent('Reset') } },
    },
    async (request, reply) => {
      await scheduling.reset(currentUser(request));
      return reply.status(204).send();
    },
  );
}
