import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../http/authenticate';
import { parseInput } from '../../http/validation';
import { queueQuerySchema, reviewSchema } from './review.schemas';
import type { ReviewService } from './review.service';

export function reviewRoutes(app: FastifyInstance, reviews: ReviewService): void {
  const auth = { onRequest: app.authenticate };

  app.get('/cards/due', auth, async (request) => {
    const { deck_id } = parseInput(queueQuerySchema, request.query);
    return reviews.queue(currentUser(request).id, deck_id);
  });

  app.post('/cards/review', auth, async (request) => {
    const input = parseInput(reviewSchema, request.body);
    return reviews.review(currentUser(request).id, input.card_id, input.result);
  });

  app.post<{ Params: { id: string } }>('/cards/:id/undo-review', auth, async (request) =>
    reviews.undo(currentUser(request).id, request.params.id),
  );

  app.get('/decks/stats', auth, async (request) => reviews.stats(currentUser(request).id, undefined));

  app.get<{ Params: { id: string } }>('/decks/:id/stats', auth, async (request) =>
    reviews.stats(currentUser(request).id, request.params.id),
  );
}
