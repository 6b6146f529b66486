import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../http/authenticate';
import { parseInput } from '../../http/validation';
import { forecastQuerySchema, historyQuerySchema } from './stats.schemas';
import type { StatsService } from './stats.service';

export function statsRoutes(app: FastifyInstance, stats: StatsService): void {
  const auth = { onRequest: app.authenticate };

  app.get('/stats/history', auth, async (request) => {
    const { days, deck_id } = parseInput(historyQuerySchema, request.query);
    return stats.history(currentUser(request), days, deck_id);
  });

  app.get('/stats/forecast', auth, async (request) => {
    const { days, deck_id } = parseInput(forecastQuerySchema, request.query);
    return stats.forecast(currentUser(request), days, deck_id);
  });
}
