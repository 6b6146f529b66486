import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../http/authenticate';
import { parseInput } from '../../http/validation';
import { quizRequestSchema } from './quiz.schemas';
import type { QuizService } from './quiz.service';

export function quizRoutes(app: FastifyInstance, quiz: QuizService): void {
  app.post('/api/quiz/generate', { onRequest: app.authenticate }, async (request) => {
    const { deck_id } = parseInput(quizRequestSchema, request.body);
    return quiz.generate(currentUser(request).id, deck_id, request.log);
  });
}
