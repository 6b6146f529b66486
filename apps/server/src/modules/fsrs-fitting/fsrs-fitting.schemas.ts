import type { OptimizeResponse, SchedulingInfo } from '@flashcards/shared/api-types';
import { z } from 'zod';

export const schedulingInfoSchema = z.object({
  personalized: z.boolean(),
  parameters: z.array(z.number()),
  optimized_at: z.iso.datetime().nullable(),
  reviews_used: z.int(),
  reviews_since: z.int(),
  min_reviews: z.int(),
}) satisfies z.ZodType<SchedulingInfo>;

export const optimizeResponseSchema = z.object({
  parameters: z.array(z.number()),
  reviews_used: z.int(),
  log_loss_default: z.number(),
  log_loss_personal: z.number(),
  detail: z.string().optional(),
}) satisfies z.ZodType<OptimizeResponse>;
