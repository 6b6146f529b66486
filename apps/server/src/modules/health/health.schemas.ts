import { z } from 'zod';
import { type ApiPaths, operation } from '../../http/openapi-legacy';

/** docs/api.md, "Service". */
export const healthPaths: ApiPaths = {
  '/healthz': {
    get: operation({
      summary: 'Liveness and readiness: 200 once the database answers',
      tags: ['Service'],
      success: { status: 200, description: 'Ready', schema: z.object({ status: z.literal('ok') }) },
      errors: ['unavailable'],
    }),
  },
};
