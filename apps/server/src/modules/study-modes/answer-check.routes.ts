import { answerCheckSchema } from '../../http/api-schemas';
import { currentUser } from '../../http/authenticate';
import { cardIdParams } from '../../http/request-schemas';
import type { App } from '../../http/validation';
import { answerCheckRequestSchema } from './answer-check.schemas';
import type { AnswerCheckService } from './answer-check.service';

/** docs/api.md, "Studying". */
export function answerCheckRoutes(app: App, checks: AnswerCheckService): void {
  app.post(
    '/cards/:id/check',
    {
      onRequest: app.authenticate,
      schema: {
        summary: "Grade a typed answer against the card's answer (costs no generation)",
        description:
          'Case, space, punctuation, markup and a leading article aside; numbers by value; any one alternative; a ' +
          'list in any order; accents and small typos are close unless the typed word is another word. With a ' +
          'model configured, answers of more than 8 words are judged by the model (ANSWER_JUDGE_TIMEOUT at most, ' +
          'then the rules).',
        tags: ['Studying'],
        params: cardIdParams,
        body: answerCheckRequestSchema,
        response: { 200: answerCheckSchema },
        errors: ['card_not_found'],
      },
    },
    async (request) => checks.check(currentUser(request).id, request.params.id, request.body.typed, request.log),
  );
}
