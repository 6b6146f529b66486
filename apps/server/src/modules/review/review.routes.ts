import { z } from 'zod';
import { cardSchema, deckStatsSchema, dueCardSchema } from '../../http/api-schemas';
import { currentUser } from '../../http/authenticate';
import { cardIdParams, deckIdParams } from '../../http/request-schemas';
import type { App } from '../../http/validation';
import { queueQuerySchema, reviewSchema } from './review.schemas';
import type { ReviewService } from './review.service';
import { syncRequestSchema, syncResponseSchema } from './review-sync.schemas';
import type { ReviewSyncService } from './review-sync.service';
import { parseWeights } from './scheduler';

/** docs/api.md, "Studying". */
export function reviewRoutes(app: App, reviews: ReviewService, sync: ReviewSyncService): void {
  const auth = app.authenticate;
  const tags: ['Studying'] = ['Studying'];

  app.get(
    '/cards/due',
    {
      onRequest: auth,
      schema: {
        summary: 'What to study now, in order',
        description:
          'Learning and relearning cards that are due, then long-term cards that are due, then new cards up to ' +
          "each deck's daily new-card limit minus the new cards it introduced today. Each card says when it would " +
          "next be due after a pass and after a fail (the learner's FSRS parameters, the deck's desired retention, " +
          'no fuzz).',
        tags,
        querystring: queueQuerySchema,
        response: { 200: z.array(dueCardSchema) },
        errors: ['deck_not_found'],
      },
    },
    async (request) => {
      const user = currentUser(request);
      return reviews.queue(user.id, request.query.deck_id, user.time_zone, parseWeights(user.fsrs_parameters));
    },
  );

  app.post(
    '/cards/review',
    {
      onRequest: auth,
      schema: {
        summary: 'Answer a card: "pass" (FSRS Good) or "fail" (Again)',
        description: 'The card rescheduled, with when its next answer would bring it back (`next_due`).',
        tags,
        body: reviewSchema,
        response: { 200: z.object({ card: dueCardSchema }) },
        errors: ['card_not_found', 'review_conflict', 'review_id_taken', 'rate_limited'],
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { card_id, result, typed, verdict, review_id } = request.body;
      const answer = { typed: typed ?? null, verdict: verdict ?? null };
      const weights = parseWeights(user.fsrs_parameters);
      return reviews.review(user.id, card_id, result, weights, user.time_zone, answer, review_id);
    },
  );

  app.post(
    '/reviews/sync',
    {
      onRequest: auth,
      // 500 answers with typed answers of 1,000 characters are more than the 1 MiB other bodies may be.
      bodyLimit: 4 * 1_048_576,
      schema: {
        summary: 'Send answers given offline, each with its own UUID and time (at most 500)',
        description:
          "Each card's answers are applied in `reviewed_at` order, each id once (`duplicate` the second time). An " +
          "answer older than the card's latest applied one is logged as `superseded` without moving the card. " +
          'Answers dated over a minute ahead or over 30 days back, and unknown or foreign cards, are `rejected` ' +
          'with a code. Results in the request order.',
        tags,
        body: syncRequestSchema,
        response: { 200: syncResponseSchema },
        errors: ['rate_limited'],
      },
    },
    async (request) => {
      const user = currentUser(request);
      return sync.sync(user.id, request.body.reviews, parseWeights(user.fsrs_parameters), user.time_zone);
    },
  );

  app.post(
    '/cards/:id/undo-review',
    {
      onRequest: auth,
      schema: {
        summary: 'Undo the latest answer to a card (the review log keeps it, marked undone)',
        description: 'The card as it was before.',
        tags,
        params: cardIdParams,
        response: { 200: z.object({ card: cardSchema }) },
        errors: ['card_not_found', 'nothing_to_undo'],
      },
    },
    async (request) => {
      const user = currentUser(request);
      return reviews.undo(user.id, request.params.id, user.time_zone);
    },
  );

  app.get(
    '/decks/stats',
    {
      onRequest: auth,
      schema: { summary: 'Statistics over every deck', tags, response: { 200: deckStatsSchema } },
    },
    async (request) => {
      const user = currentUser(request);
      return reviews.stats(user.id, undefined, user.time_zone);
    },
  );

  app.get(
    '/decks/:id/stats',
    {
      onRequest: auth,
      schema: {
        summary: "One deck's statistics",
        tags,
        params: deckIdParams,
        response: { 200: deckStatsSchema },
        errors: ['deck_not_found'],
      },
    },
    async (request) => {
      const user = currentUser(request);
      return reviews.stats(user.id, request.params.id, user.time_zone);
    },
  );
}
