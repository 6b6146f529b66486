import type { QuizResponse } from '@flashcards/shared/api-types';
import type { FastifyBaseLogger } from 'fastify';
import { type AiProvider, AiUnavailableError } from '../../adapters/ai/ai-provider';
import { isId } from '../../adapters/ids';
import type { RateLimiter } from '../../adapters/rate-limit/rate-limiter';
import { appError } from '../../http/app-error';
import { toAppError } from '../generation/generation.service';
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
    async generate(userId: string, deckId: unknown, log: FastifyBaseLogger): Promise<QuizResponse> {
      if (deckId === undefined || deckId === null || deckId === '') {
        throw appError(422, 'validation_failed', 'selectDeck');
      }
      if (!isId(deckId)) throw appError(422, 'invalid_deck_id', 'invalidDeckIdServer');
      const cards = await deps.repo.findDeckCards(userId, deckId);
      if (!cards) throw appError(404, 'deck_not_found', 'deckNotFound');
      if (cards.length === 0) throw appError(422, 'empty_deck', 'quizEmpty');

      const waitMs = await deps.limiter.hit(userId);
      if (waitMs !== null) {
        throw appError(429, 'rate_limited', 'rateLimited', { retryAfterSeconds: Math.ceil(waitMs / 1000) });
      }

      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), deps.timeoutMs);
      try {
        const result = await deps.provider.generateQuiz(
          { cards: cards.slice(0, deps.maxCardsIn), maxQuestions: deps.maxQuestions },
          controller.signal,
        );
        const originals = new Set(cards.map((card) => card.question.trim().toLowerCase()));
        const questions = result.cards.filter((card) => !originals.has(card.question.trim().toLowerCase()));
        if (questions.length === 0) throw appError(422, 'no_quiz_cards', 'quizEmpty');
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
          throw appError(502, 'ai_unavailable', 'quizFailed');
        }
        throw toAppError(error, log);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

export type QuizService = ReturnType<typeof createQuizService>;
