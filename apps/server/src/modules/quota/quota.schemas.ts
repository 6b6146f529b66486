import { subscriptionStatusSchema } from '../../http/api-schemas';
import { type ApiPaths, operation } from '../../http/openapi-legacy';

/** docs/api.md, "Billing". */
export const quotaPaths: ApiPaths = {
  '/api/subscription-status': {
    get: operation({
      summary: "The user's plan, quotas and what the next generation may draw on",
      tags: ['Billing'],
      auth: true,
      success: { status: 200, description: 'The status', schema: subscriptionStatusSchema },
    }),
  },
};
