import type { AnswerCheck, AnswerVerdict } from '@flashcards/shared/api-types';
import { answerDiff } from '@flashcards/shared/grader/answer-diff';
import { gradeAnswer } from '@flashcards/shared/grader/grade-answer';
import type { FastifyBaseLogger } from 'fastify';
import type { AiProvider } from '../../adapters/ai/ai-provider';
import { isId } from '../../adapters/ids';
import type { RateLimiter } from '../../adapters/rate-limit/rate-limiter';
import { errors } from '../../http/app-error';
import type { AnswerCheckRepo } from './answer-check.repo';

export interface AnswerCheckServiceDeps {
  repo: AnswerCheckRepo;
  /** The AI provider: a provider with `judgeAnswer` (a model) judges long answers by meaning. */
  provider: AiProvider;
  /** Model judgements per user; past the limit the rules grade alone. */
  judgeLimiter: RateLimiter;
  /** How long a judgement may take before the rules grade instead. */
  judgeTimeoutMs: number;
  /** Whether a typed word is another word of the expected word's language (adapters/word-list.ts). */
  isOtherWord: (typed: string, expected: string) => boolean;
}

/** Answers of more than this many words go to the model, when there is one: the rules are strict on long answers. */
const maxWordsForRules = 8;

const wordCount = (text: string) => text.trim().split(/\s+/).length;

/** Grades typed answers against a card's answer: by the rules (packages/shared/src/grader), or by the model. */
export function createAnswerCheckService(deps: AnswerCheckServiceDeps) {
  /** The model's verdict, or null when there is no model, the user is past the limit, or it failed or ran late. */
  async function judged(
    userId: string,
    card: { question: string; answer: string },
    typed: string,
    log: FastifyBaseLogger,
  ): Promise<{ verdict: AnswerVerdict; explanation: string } | null> {
    const judge = deps.provider.judgeAnswer?.bind(deps.provider);
    if (!judge || wordCount(typed) <= maxWordsForRules) return null;
    if ((await deps.judgeLimiter.hit(userId)) !== null) return null;
    try {
      return await judge(
        { question: card.question, expected: card.answer, typed },
        AbortSignal.timeout(deps.judgeTimeoutMs),
      );
    } catch (error) {
      log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'answer judge failed; rules graded');
      return null;
    }
  }

  return {
    /** Costs no generation. Another user's card, or a malformed id, is as missing as an unknown one. */
    async check(userId: string, cardId: string, typed: string, log: FastifyBaseLogger): Promise<AnswerCheck> {
      if (!isId(cardId)) throw errors.cardNotFound();
      const card = await deps.repo.cardSides(userId, cardId);
      if (!card) throw errors.cardNotFound();
      const judgement = await judged(userId, card, typed, log);
      const verdict = judgement?.verdict ?? gradeAnswer(typed, card.answer, { isOtherWord: deps.isOtherWord });
      return {
        verdict,
        suggested_result: verdict === 'wrong' ? 'fail' : 'pass',
        expected: card.answer,
        typed,
        diff: answerDiff(card.answer, typed),
        ...(judgement?.verdict === 'close' && judgement.explanation !== ''
          ? { explanation: judgement.explanation }
          : {}),
      };
    },
  };
}

export type AnswerCheckService = ReturnType<typeof createAnswerCheckService>;
