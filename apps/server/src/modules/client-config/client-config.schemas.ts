import { clientConfigSchema } from '../../http/api-schemas';
import { type ApiPaths, operation } from '../../http/openapi-legacy';

/** docs/api.md, "Service". */
export const clientConfigPaths: ApiPaths = {
  '/api/config': {
    get: operation({
      summary: 'What this server offers the web app (no secrets)',
      tags: ['Service'],
      success: { status: 200, description: 'The configuration', schema: clientConfigSchema },
    }),
  },
};
