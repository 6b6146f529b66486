import { z } from 'zod';
import { answerCheckSchema } from '../../http/api-schemas';
import { type ApiPaths, json, operation } from '../../http/openapi';
import { cardIdParams, typedAnswerSchema } from '../../http/request-schemas';

/** POST /cards/{id}/check: what the learner typed, 1 to 1,000 characters. */
export const answerCheckRequestSchema = z.object({ typed: typedAnswerSchema });

/** docs/api.md, "Studying". */
export const answerCheckPaths: ApiPaths = {
  '/cards/{id}/check': {
    post: operation({
      summary: "Grade a typed answer against the card's answer (costs no generation)",
      description:
        'Case, space, punctuation, markup and a leading article aside; numbers by value; any one alternative; a ' +
        'list in any order; accents and small typos are close unless the typed word is another word. With a model ' +
        'configured, answers of more than 8 words are judged by the model (5 s at most, then the rules).',
      tags: ['Studying'],
      auth: true,
      params: cardIdParams,
      body: json(answerCheckRequestSchema),
      success: { status: 200, description: 'The verdict, the suggested result and a diff', schema: answerCheckSchema },
      errors: ['card_not_found'],
    }),
  },
};
