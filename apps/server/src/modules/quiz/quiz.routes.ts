import { quizResponseSchema } from '../../http/api-schemas';
import { currentUser } from '../../http/authenticate';
import type { App } from '../../http/validation';
import { quizRequestSchema } from './quiz.schemas';
import type { QuizService } from './quiz.service';

/** docs/api.md, "Quiz". */
export function quizRoutes(app: App, quiz: QuizService): void {
  app.post(
    '/api/quiz/generate',
    {
      onRequest: app.authenticate,
      schema: {
        summary: "New questions on a deck's material (costs no generation; limited per hour)",
        tags: ['Quiz'],
        body: quizRequestSchema,
        response: { 200: quizResponseSchema },
        errors: [
          'invalid_deck_id',
          'deck_not_found',
          'empty_deck',
          'no_quiz_cards',
          'rate_limited',
          'ai_unavailable',
          'ai_timeout',
        ],
      },
    },
    async (request) => quiz.generate(currentUser(request).id, request.body.deck_id, request.log),
  );
}
