import { messages } from '@flashcards/shared/messages';
import { z } from 'zod';
import { cardSchema, deckStatsSchema, dueCardSchema } from '../../http/api-schemas';
import { type ApiPaths, json, operation } from '../../http/openapi';
import {
  bodyWithId,
  cardIdParams,
  deckFilter,
  deckIdParams,
  typedAnswerSchema,
  verdictSchema,
} from '../../http/request-schemas';

/**
 * POST /cards/review: `card_id` (or `_id` / `id`) and "pass" or "fail"; after a typed answer, what was typed and the
 * verdict of POST /cards/{id}/check, kept in the review log.
 */
export const reviewSchema = bodyWithId('card_id', messages.cardIdMissing, {
  result: z.enum(['pass', 'fail'], { error: messages.reviewResultInvalid }),
  typed: typedAnswerSchema.optional(),
  verdict: verdictSchema.optional(),
});

/** GET /cards/due and the stats: an optional deck. */
export const queueQuerySchema = z.object({ deck_id: deckFilter });

/** docs/api.md, "Studying". */
export const reviewPaths: ApiPaths = {
  '/cards/due': {
    get: operation({
      summary: 'What to study now, in order',
      description:
        'Learning and relearning cards that are due, then long-term cards that are due, then new cards up to each ' +
        "deck's daily new-card limit minus the new cards it introduced today. Each card says when it would next be " +
        "due after a pass and after a fail (the learner's FSRS parameters, the deck's desired retention, no fuzz).",
      tags: ['Studying'],
      auth: true,
      query: queueQuerySchema,
      success: { status: 200, description: 'The queue', schema: z.array(dueCardSchema) },
      errors: ['deck_not_found'],
    }),
  },
  '/cards/review': {
    post: operation({
      summary: 'Answer a card: "pass" (FSRS Good) or "fail" (Again)',
      tags: ['Studying'],
      auth: true,
      body: json(reviewSchema),
      success: {
        status: 200,
        description: 'The card rescheduled, with when its next answer would bring it back (next_due)',
        schema: z.object({ card: dueCardSchema }),
      },
      errors: ['card_not_found', 'review_conflict', 'rate_limited'],
    }),
  },
  '/cards/{id}/undo-review': {
    post: operation({
      summary: 'Undo the latest answer to a card (the review log keeps it, marked undone)',
      tags: ['Studying'],
      auth: true,
      params: cardIdParams,
      success: { status: 200, description: 'The card as it was before', schema: z.object({ card: cardSchema }) },
      errors: ['card_not_found', 'nothing_to_undo'],
    }),
  },
  '/decks/stats': {
    get: operation({
      summary: 'Statistics over every deck',
      tags: ['Studying'],
      auth: true,
      success: { status: 200, description: 'The statistics', schema: deckStatsSchema },
    }),
  },
  '/decks/{id}/stats': {
    get: operation({
      summary: "One deck's statistics",
      tags: ['Studying'],
      auth: true,
      params: deckIdParams,
      success: { status: 200, description: 'The statistics', schema: deckStatsSchema },
      errors: ['deck_not_found'],
    }),
  },
};
