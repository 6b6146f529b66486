import type { HealthResponse } from '@flashcards/shared/api-types';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { ping } from '../../db/database';
import type { Database } from '../../db/schema';
import { errors } from '../../http/app-error';

export function healthRoutes(app: FastifyInstance, db: Kysely<Database>): void {
  app.get('/healthz', { logLevel: 'warn' }, async (request): Promise<HealthResponse> => {
    try {
      await ping(db);
    } catch (error) {
      request.log.error({ err: error }, 'health check: database unreachable');
      throw errors.unavailable();
    }
    return { status: 'ok' };
  });
}
