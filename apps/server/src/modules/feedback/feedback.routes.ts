import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { SessionUser } from '../../http/session-user';
import type { App } from '../../http/validation';
import { feedbackSchema } from './feedback.schemas';
import type { FeedbackService } from './feedback.service';

/** No login needed; a valid bearer token, when sent, links the feedback to its account. docs/api.md, "Feedback". */
export function feedbackRoutes(
  app: App,
  feedback: FeedbackService,
  resolveUser: (token: string) => Promise<SessionUser | null>,
): void {
  const optionalUserId = async (request: FastifyRequest): Promise<string | null> => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    return match?.[1] ? ((await resolveUser(match[1]))?.id ?? null) : null;
  };

  app.post(
    '/send-feedback',
    {
      schema: {
        summary: 'Send feedback (signed in or not)',
        tags: ['Feedback'],
        body: feedbackSchema,
        response: { 201: z.object({ ok: z.literal(true) }).meta({ description: 'Recorded' }) },
        errors: ['rate_limited'],
      },
    },
    async (request, reply) => {
      const userId = await optionalUserId(request);
      return reply.status(201).send(await feedback.send(request.body, request.ip, userId));
    },
  );
}
