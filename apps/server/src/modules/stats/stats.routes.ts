import { currentUser } from '../../http/authenticate';
import type { App } from '../../http/validation';
import {
  forecastQuerySchema,
  forecastResponseSchema,
  historyQuerySchema,
  historyResponseSchema,
} from './stats.schemas';
import type { StatsService } from './stats.service';

/** docs/api.md, "Statistics". */
export function statsRoutes(app: App, stats: StatsService): void {
  const tags: ['Statistics'] = ['Statistics'];

  app.get(
    '/stats/history',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Reviews per study day, streak and 30-day retention',
        description: 'Every day of the range, oldest first.',
        tags,
        querystring: historyQuerySchema,
        response: { 200: historyResponseSchema },
        errors: ['deck_not_found'],
      },
    },
    async (request) => stats.history(currentUser(request), request.query.days, request.query.deck_id),
  );

  app.get(
    '/stats/forecast',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Cards falling due per day, today first',
        tags,
        querystring: forecastQuerySchema,
        response: { 200: forecastResponseSchema },
        errors: ['deck_not_found'],
      },
    },
    async (request) => stats.forecast(currentUser(request), request.query.days, request.query.deck_id),
  );
}
