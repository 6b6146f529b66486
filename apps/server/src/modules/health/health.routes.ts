import type { HealthResponse } from '@flashcards/shared/api-types';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { ping } from '../../db/database';
import type { Database } from '../../db/schema';
import { errors } from '../../http/app-error';
import type { App } from '../../http/validation';

/** docs/api.md, "Service". */
export function healthRoutes(app: App, db: Kysely<Database>): void {
  app.get(
    '/healthz',
    {
      logLevel: 'warn',
      schema: {
        summary: 'Liveness and readiness: 200 once the database answers',
        tags: ['Service'],
        response: { 200: z.object({ status: z.literal('ok') }).meta({ description: 'Ready' }) },
        errors: ['unavailable'],
      },
    },
    async (request): Promise<HealthResponse> => {
      try {
        await ping(db);
      } catch (error) {
        request.log.error({ err: error }, 'health check: database unreachable');
        throw errors.unavailable();
      }
      return { status: 'ok' };
    },
  );
}
