import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../http/authenticate';
import { parseInput } from '../../http/validation';
import { answerCheckRequestSchema } from './answer-check.schemas';
import type { AnswerCheckService } from './answer-check.service';

export function answerCheckRoutes(app: FastifyInstance, checks: AnswerCheckService): void {
  app.post<{ Params: { id: string } }>('/cards/:id/check', { onRequest: app.authenticate }, async (request) => {
    const { typed } = parseInput(answerCheckRequestSchema, request.body);
    return checks.check(currentUser(request).id, request.params.id, typed, request.log);
  });
}
