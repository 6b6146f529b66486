import type { QuizResponse } from '@flashcards/shared/api-types';
import type { FastifyBaseLogger } from 'fastify';
import { type AiProvider, AiUnavailableError } from '../../adapters/ai/ai-provider';
import { withAbortDeadline } from '../../adapters/deadline';
import type { RateLimiter } from '../../adapters/rate-limit/rate-limiter';
import { errors, rateLimited } from '../../http/app-error';
import { toAppError } from '../../http/to-app-error';
import type { QuizRepo } from './quiz.repo';

export interface QuizServiceDeps {
  repo: QuizRepo;
  provider: AiProvider;
  /** Quizzes spend no generation quota; this limits them per user instead. */
  limiter: RateLimiter;
  timeoutMs: number;
  maxQuestions: number;
  /** The deck's cards the provider sees at most (the first ones, in creation order). */
  maxCardsIn: number;
}

export function createQuizService(deps: QuizServiceDeps) {
  return {
    /** `deckId` is well-formed (quiz.schemas.ts); someone else's deck is as missing as an unknown one. */
    async generate(userId: string, deckId: string, log: FastifyBaseLogger): Promise<QuizResponse> {
      const cards = await deps.repo.findDeckCards(userId, deckId);
      if (!cards) throw errors.deckNotFound();
      if (cards.length === 0) throw errors.emptyDeck();

      const waitMs = await deps.limiter.hit(userId);
      if (waitMs !== null) {
        throw rateLimited(waitMs);
      }

      try {
        const result = await withAbortDeadline(deps.timeoutMs, (signal) =>
          deps.provider.generateQuiz(
            { cards: cards.slice(0, deps.maxCardsIn), maxQuestions: deps.maxQuestions },
            signal,
          ),
        );
        const originals = new Set(cards.map((card) => card.question.trim().toLowerCase()));
        const questions = result.cards.filter((card) => !originals.has(card.question.trim().toLowerCase()));
        if (questions.length === 0) throw errors.noQuizCards();
        log.info(
          {
            quiz: {
              provider: deps.provider.name,
              model: deps.provider.model,
              deckCards: cards.length,
              questions: questions.length,
            },
          },
          'quiz generated',
        );
        return { cards: questions.map(({ question, answer }) => ({ question, answer })) };
      } catch (error) {
        if (error instanceof AiUnavailableError) {
          log.error({ reason: error.message }, 'AI provider failed on a quiz');
          throw errors.aiUnavailable({ message: 'quizFailed' });
        }
        throw toAppError(error, log);
      }
    },
  };
}

export type QuizService = ReturnType<typeof createQuizService>;
