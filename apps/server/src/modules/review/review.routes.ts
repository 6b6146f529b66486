import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../http/authenticate';
import { parseInput } from '../../http/validation';
import { queueQuerySchema, reviewSchema } from './review.schemas';
import type { ReviewService } from './review.service';
import { parseWeights } from './scheduler';

export function reviewRoutes(app: FastifyInstance, reviews: ReviewService): void {
  const auth = { onRequest: app.authenticate };

  app.get('/cards/due', auth, async (request) => {
    const { deck_id } = parseInput(queueQuerySchema, request.query);
    const user = currentUser(request);
    return reviews.queue(user.id, deck_id, user.time_zone, parseWeights(user.fsrs_parameters));
  });

  app.post('/cards/review', auth, async (request) => {
    const input = parseInput(reviewSchema, request.body);
    const user = currentUser(request);
    const typed = { typed: input.typed ?? null, verdict: input.verdict ?? null };
    return reviews.review(user.id, input.card_id, input.result, parseWeights(user.fsrs_parameters), typed);
  });

  app.post<{ Params: { id: string } }>('/cards/:id/undo-review', auth, async (request) =>
    reviews.undo(currentUser(request).id, request.params.id),
  );

  app.get('/decks/stats', auth, async (request) => {
    const user = currentUser(request);
    return reviews.stats(user.id, undefined, user.time_zone);
  });

  app.get<{ Params: { id: string } }>('/decks/:id/stats', auth, async (request) => {
    const user = currentUser(request);
    return reviews.stats(user.id, request.params.id, user.time_zone);
  });
}
