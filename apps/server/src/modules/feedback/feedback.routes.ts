import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SessionUser } from '../../http/session-user';
import { parseInput } from '../../http/validation';
import { feedbackSchema } from './feedback.schemas';
import type { FeedbackService } from './feedback.service';

/** No login needed; a valid bearer token, when sent, links the feedback to its account. */
export function feedbackRoutes(
  app: FastifyInstance,
  feedback: FeedbackService,
  resolveUser: (token: string) => Promise<SessionUser | null>,
): void {
  const optionalUserId = async (request: FastifyRequest): Promise<string | null> => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    return match?.[1] ? ((await resolveUser(match[1]))?.id ?? null) : null;
  };

  app.post('/send-feedback', async (request, reply) => {
    const input = parseInput(feedbackSchema, request.body);
    const userId = await optionalUserId(request);
    return reply.status(201).send(await feedback.send(input, request.ip, userId));
  });
}
