import type { SyncResponse } from '@flashcards/shared/api-types';
import { syncRejectionCodes } from '@flashcards/shared/errors';
import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { z } from 'zod';
import { dueCardSchema } from '../../http/api-schemas';

/** The most answers one POST /reviews/sync takes (docs/api.md). */
export const MAX_SYNC_REVIEWS = 500;

const syncReviewSchema = z.object({
  // Lower case, so that one UUID written in either case is one id.
  id: z
    .uuid({ error: serverMessages.syncReviewIdInvalid })
    .transform((id) => id.toLowerCase())
    .meta({ description: 'A UUID the client made for this answer' }),
  card_id: z.string({ error: messages.cardIdMissing }).trim().min(1, { error: messages.cardIdMissing }).max(100, {
    error: messages.cardIdMissing,
  }),
  result: z.enum(['pass', 'fail'], { error: serverMessages.reviewResultInvalid }),
  reviewed_at: z.iso
    .datetime({ offset: true, error: serverMessages.syncReviewedAtInvalid })
    .transform((time) => Date.parse(time))
    .meta({ description: 'When the answer was given (ISO 8601)' }),
  typed: z
    .string({ error: serverMessages.syncTypedInvalid })
    .min(1, { error: serverMessages.syncTypedInvalid })
    .max(1_000, { error: serverMessages.syncTypedInvalid })
    .optional(),
  verdict: z.enum(['correct', 'close', 'wrong'], { error: serverMessages.syncVerdictInvalid }).optional(),
  base: z.iso
    .datetime({ offset: true, error: serverMessages.syncBaseInvalid })
    .transform((time) => Date.parse(time))
    .nullable()
    .optional()
    .meta({
      description:
        "The card's last_review as the device saw it when answering (null for a new card): an answer whose base is older than the card's latest applied review was made concurrently with it",
    }),
});

/** POST /reviews/sync: `{ reviews: [...] }`, at most 500. */
export const syncRequestSchema = z.object({
  reviews: z
    .array(syncReviewSchema, { error: serverMessages.syncReviewsMissing })
    .max(MAX_SYNC_REVIEWS, { error: serverMessages.syncTooManyReviews }),
});

export type SyncReviewInput = z.output<typeof syncReviewSchema>;

export const syncResponseSchema = z.object({
  results: z.array(
    z.object({
      id: z.string(),
      status: z.enum(['applied', 'duplicate', 'superseded', 'rejected']),
      code: z.enum(syncRejectionCodes).optional().meta({ description: 'Why a `rejected` answer was refused' }),
      card: dueCardSchema.optional(),
    }),
  ),
}) satisfies z.ZodType<SyncResponse>;
