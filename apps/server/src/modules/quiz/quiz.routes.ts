import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../http/authenticate';
import type { QuizService } from './quiz.service';

export function quizRoutes(app: FastifyInstance, quiz: QuizService): void {
  app.post('/api/quiz/generate', { onRequest: app.authenticate }, async (request) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    return quiz.generate(currentUser(request).id, body.deck_id ?? body.id, request.log);
  });
}
