import type { OptimizeResponse, SchedulingInfo } from '@flashcards/shared/api-types';
import { z } from 'zod';
import { type ApiPaths, operation } from '../../http/openapi';

const schedulingInfoSchema = z.object({
  personalized: z.boolean(),
  parameters: z.array(z.number()),
  optimized_at: z.iso.datetime().nullable(),
  reviews_used: z.int(),
  reviews_since: z.int(),
  min_reviews: z.int(),
}) satisfies z.ZodType<SchedulingInfo>;

const optimizeResponseSchema = z.object({
  parameters: z.array(z.number()),
  reviews_used: z.int(),
  log_loss_default: z.number(),
  log_loss_personal: z.number(),
  detail: z.string().optional(),
}) satisfies z.ZodType<OptimizeResponse>;

/** docs/api.md, "Personal scheduling". */
export const fsrsFittingPaths: ApiPaths = {
  '/scheduling': {
    get: operation({
      summary: 'Whether scheduling uses parameters fitted to the user, and how many reviews there are',
      tags: ['Scheduling'],
      auth: true,
      success: { status: 200, description: 'The scheduling state', schema: schedulingInfoSchema },
    }),
  },
  '/scheduling/optimize': {
    post: operation({
      summary: "Fit FSRS parameters to the user's review log",
      tags: ['Scheduling'],
      auth: true,
      success: {
        status: 200,
        description: 'The fit and its log loss before and after',
        schema: optimizeResponseSchema,
      },
      errors: [
        'not_enough_reviews',
        'optimize_in_progress',
        'rate_limited',
        'optimize_busy',
        'optimize_timeout',
        'optimize_failed',
      ],
    }),
  },
  '/scheduling/parameters': {
    delete: operation({
      summary: 'Back to the default parameters',
      tags: ['Scheduling'],
      auth: true,
      success: { status: 204, description: 'Reset' },
    }),
  },
};
