import type { FeedbackResponse } from '@flashcards/shared/api-types';
import type { Clock } from '../../adapters/clock';
import type { IdGenerator } from '../../adapters/ids';
import type { RateLimiterFactory } from '../../adapters/rate-limit/rate-limiter';
import { rateLimited } from '../../http/app-error';
import type { FeedbackRepo } from './feedback.repo';

export interface FeedbackServiceDeps {
  feedback: FeedbackRepo;
  clock: Clock;
  newId: IdGenerator;
  rateLimiters: RateLimiterFactory;
  /** Accepted submissions per client address per hour (FEEDBACK_RATE_LIMIT_PER_HOUR). */
  perHour: number;
}

/** Feedback from anyone, signed in or not; kept in the database, rate limited per client address. */
export function createFeedbackService(deps: FeedbackServiceDeps) {
  const limiter = deps.rateLimiters({ name: 'feedback-ip', points: deps.perHour, windowMs: 3_600_000 });

  return {
    async send(
      input: { feedback: string; email: string | null },
      clientIp: string,
      userId: string | null,
    ): Promise<FeedbackResponse> {
      const waitMs = await limiter.hit(clientIp);
      if (waitMs !== null) {
        throw rateLimited(waitMs);
      }
      await deps.feedback.insert({
        id: deps.newId(),
        user_id: userId,
        email: input.email,
        feedback: input.feedback,
        created_at: deps.clock.now(),
      });
      return { ok: true };
    },
  };
}

export type FeedbackService = ReturnType<typeof createFeedbackService>;
