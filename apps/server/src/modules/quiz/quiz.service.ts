import type {
  MultipleChoiceQuestion,
  QuizMode,
  QuizResponse,
  QuizResults,
  StudyQuiz,
} from '@flashcards/shared/api-types';
import type { FastifyBaseLogger } from 'fastify';
import { type AiProvider, AiUnavailableError } from '../../adapters/ai/ai-provider';
import type { Clock } from '../../adapters/clock';
import { withAbortDeadline } from '../../adapters/deadline';
import type { RateLimiter } from '../../adapters/rate-limit/rate-limiter';
import { errors, rateLimited } from '../../http/app-error';
import { toAppError } from '../../http/to-app-error';
import type { QuizRepo } from './quiz.repo';
import {
  matching,
  multipleChoice,
  type QuizCard,
  type Random,
  sample,
  trueFalse,
  withWrittenDistractors,
  written,
} from './quiz-modes';

export interface QuizServiceDeps {
  repo: QuizRepo;
  provider: AiProvider;
  /** Quizzes spend no generation quota; this limits them per user instead (every mode). */
  limiter: RateLimiter;
  clock: Clock;
  random: Random;
  timeoutMs: number;
  /** QUIZ_DISTRACTORS_TIMEOUT: how long the model may take to write multiple-choice distractors. */
  distractorsTimeoutMs: number;
  maxQuestions: number;
  /** The deck's cards the provider sees at most (the first ones, in creation order). */
  maxCardsIn: number;
}

/**
 * The cards a quiz of the modes without a model is made from at most: its questions and their distractors, drawn at
 * random from the deck. Enough for every kind and length of answer to be there in a large deck.
 */
const maxSampledCards = 2000;

/** Other answers of the deck a model sees, to write wrong options in their style. */
const maxDistractorExamples = 12;

/** Multiple choice and matching need four cards with different answers. */
const minCardsForChoice = 4;

export function createQuizService(deps: QuizServiceDeps) {
  /** Reworded questions on the deck's first cards, by the provider (the quiz as it was before modes). */
  async function flip(cards: QuizCard[], log: FastifyBaseLogger): Promise<QuizResponse> {
    try {
      const result = await withAbortDeadline(deps.timeoutMs, (signal) =>
        deps.provider.generateQuiz(
          {
            cards: cards.slice(0, deps.maxCardsIn).map(({ question, answer }) => ({ question, answer })),
            maxQuestions: deps.maxQuestions,
          },
          signal,
        ),
      );
      const originals = new Set(cards.map((card) => card.question.trim().toLowerCase()));
      const questions = result.cards
        .filter((card) => !originals.has(card.question.trim().toLowerCase()))
        .map(({ question, answer }) => ({ question, answer }));
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
      return { mode: 'flip', questions, cards: questions };
    } catch (error) {
      if (error instanceof AiUnavailableError) {
        log.error({ reason: error.message }, 'AI provider failed on a quiz');
        throw errors.aiUnavailable({ message: 'quizFailed' });
      }
      throw toAppError(error, log);
    }
  }

  /**
   * With a model, its wrong options in place of the deck's (withWrittenDistractors), in one request bounded by
   * QUIZ_DISTRACTORS_TIMEOUT; on any failure or past it, the questions keep the deck's answers.
   */
  async function modelDistractors(
    questions: MultipleChoiceQuestion[],
    cards: readonly QuizCard[],
    log: FastifyBaseLogger,
  ): Promise<MultipleChoiceQuestion[]> {
    const write = deps.provider.writeDistractors?.bind(deps.provider);
    if (!write) return questions;
    try {
      const items = questions.map((question) => ({
        question: question.question,
        answer: question.options[question.answer_index] ?? '',
      }));
      const examples = sample(cards, maxDistractorExamples, deps.random).map((card) => card.answer.trim());
      const written = await withAbortDeadline(deps.distractorsTimeoutMs, (signal) =>
        write({ items, count: 3, examples }, signal),
      );
      return questions.map((question, index) => withWrittenDistractors(question, written[index] ?? [], deps.random));
    } catch (error) {
      log.warn(
        { reason: error instanceof Error ? error.message : String(error) },
        "model distractors failed; the deck's answers are used",
      );
      return questions;
    }
  }

  return {
    /** `deckId` is well-formed (quiz.schemas.ts); someone else's deck is as missing as an unknown one. */
    async generate(userId: string, deckId: string, mode: QuizMode, log: FastifyBaseLogger): Promise<StudyQuiz> {
      const cards =
        mode === 'flip'
          ? await deps.repo.findDeckCards(userId, deckId)
          : await deps.repo.sampleDeckCards(userId, deckId, maxSampledCards);
      if (!cards) throw errors.deckNotFound();
      if (cards.length === 0) throw errors.emptyDeck();
      if ((mode === 'multiple_choice' || mode === 'matching') && cards.length < minCardsForChoice) {
        throw errors.notEnoughCards();
      }

      const waitMs = await deps.limiter.hit(userId);
      if (waitMs !== null) throw rateLimited(waitMs);

      const count = deps.maxQuestions;
      switch (mode) {
        case 'flip':
          return flip(cards, log);
        case 'multiple_choice': {
          const questions = multipleChoice(cards, count, deps.random);
          // Four cards or more, but fewer than four different answers (four cards that all say "Paris").
          if (questions.length === 0) throw errors.notEnoughCards();
          return { mode, questions: await modelDistractors(questions, cards, log) };
        }
        case 'matching': {
          const questions = matching(cards, count, deps.random);
          if (questions.length === 0) throw errors.notEnoughCards();
          return { mode, questions };
        }
        case 'true_false':
          return { mode, questions: trueFalse(cards, count, deps.random) };
        case 'written':
          return { mode, questions: written(cards, count, deps.random) };
      }
    },

    /**
     * A finished quiz's score; with `sendMissed`, the missed cards are due now (no review is logged: a quiz answer
     * is not a scheduled review). Every card must be a card of the deck.
     */
    async results(
      userId: string,
      deckId: string,
      answers: { card_id: string; correct: boolean }[],
      sendMissed: boolean,
    ): Promise<QuizResults> {
      const cardIds = [...new Set(answers.map((answer) => answer.card_id))];
      const [deckFound, found] = await Promise.all([
        deps.repo.findDeckExists(userId, deckId),
        deps.repo.cardsOfDeck(userId, deckId, cardIds),
      ]);
      if (!deckFound) throw errors.deckNotFound();
      if (found.size !== cardIds.length) throw errors.cardNotFound();
      const missed = [...new Set(answers.filter((answer) => !answer.correct).map((answer) => answer.card_id))];
      if (sendMissed && missed.length > 0) await deps.repo.makeDue(userId, deckId, missed, deps.clock.now());
      return {
        score: answers.filter((answer) => answer.correct).length,
        total: answers.length,
        missed_card_ids: missed,
      };
    },
  };
}

export type QuizService = ReturnType<typeof createQuizService>;
