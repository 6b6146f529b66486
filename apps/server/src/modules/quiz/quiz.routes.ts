import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../http/authenticate';
import { parseInput } from '../../http/validation';
import { quizRequestSchema, quizResultsRequestSchema } from './quiz.schemas';
import type { QuizService } from './quiz.service';

export function quizRoutes(app: FastifyInstance, quiz: QuizService): void {
  app.post('/api/quiz/generate', { onRequest: app.authenticate }, async (request) => {
    const { deck_id, mode } = parseInput(quizRequestSchema, request.body);
    return quiz.generate(currentUser(request).id, deck_id, mode, request.log);
  });

  app.post('/api/quiz/results', { onRequest: app.authenticate }, async (request) => {
    const input = parseInput(quizResultsRequestSchema, request.body);
    return quiz.results(currentUser(request).id, input.deck_id, input.answers, input.send_missed_to_review);
  });
}
