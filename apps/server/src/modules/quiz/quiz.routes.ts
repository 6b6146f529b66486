import { quizResultsSchema, studyQuizSchema } from '../../http/api-schemas';
import { currentUser } from '../../http/authenticate';
import type { App } from '../../http/validation';
import { quizRequestSchema, quizResultsRequestSchema } from './quiz.schemas';
import type { QuizService } from './quiz.service';

/** docs/api.md, "Quiz". */
export function quizRoutes(app: App, quiz: QuizService): void {
  app.post(
    '/api/quiz/generate',
    {
      onRequest: app.authenticate,
      schema: {
        summary: "Questions on a deck's cards, by mode (costs no generation; limited per hour)",
        description:
          '`flip` (the default): new questions on the material, written by the AI provider. `multiple_choice`: four ' +
          'distinct options, the distractors other answers of the deck of the same kind and near length. ' +
          "`true_false`: a question with its answer or another card's. `matching`: rounds of up to six pairs. " +
          '`written`: questions to answer by typing, checked with POST /cards/{id}/check.',
        tags: ['Quiz'],
        body: quizRequestSchema,
        response: { 200: studyQuizSchema },
        errors: [
          'invalid_deck_id',
          'deck_not_found',
          'empty_deck',
          'not_enough_cards',
          'no_quiz_cards',
          'rate_limited',
          'ai_unavailable',
          'ai_timeout',
        ],
      },
    },
    async (request) => quiz.generate(currentUser(request).id, request.body.deck_id, request.body.mode, request.log),
  );

  app.post(
    '/api/quiz/results',
    {
      onRequest: app.authenticate,
      schema: {
        summary: "A finished quiz's score; with send_missed_to_review the missed cards are due now (no review logged)",
        tags: ['Quiz'],
        body: quizResultsRequestSchema,
        response: { 200: quizResultsSchema },
        errors: ['invalid_deck_id', 'deck_not_found', 'card_not_found'],
      },
    },
    async (request) =>
      quiz.results(
        currentUser(request).id,
        request.body.deck_id,
        request.body.answers,
        request.body.send_missed_to_review,
      ),
  );
}
