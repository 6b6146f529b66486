import { limits } from '@flashcards/shared/limits';
import { z } from 'zod';
import { generateResponseSchema } from '../../http/api-schemas';
import { type ApiPaths, multipart, operation } from '../../http/openapi-legacy';

/** POST /create's form, as documented (the route reads it as a stream: generation.routes.ts). */
const generationForm = z.object({
  text: z.string().max(limits.maxTextLength).optional(),
  file: z
    .string()
    .meta({ format: 'binary', description: 'PDF, TXT, DOCX, DOC, PPTX, JPG or PNG, up to 10 MB' })
    .optional(),
});

/** docs/api.md, "Card generation". */
export const generationPaths: ApiPaths = {
  '/create': {
    post: operation({
      summary: 'Generate cards from text or a file (costs 1, 3 or 5 generations, refunded on failure)',
      description:
        'With `Accept: text/event-stream` the answer streams: `progress`, `card` (as soon as each is known), then ' +
        '`done` (the JSON body) or `error` (`{ detail, code, status }`). Checks that fail before any work answer ' +
        'as JSON errors either way.',
      tags: ['Generation'],
      auth: true,
      body: multipart(generationForm),
      success: { status: 200, description: 'The cards and what is left', schema: generateResponseSchema },
      errors: [
        'empty_input',
        'text_too_long',
        'file_too_large',
        'unsupported_file_type',
        'file_unreadable',
        'no_cards_generated',
        'insufficient_quota',
        'rate_limited',
        'busy',
        'generation_in_progress',
        'ai_unavailable',
        'ai_timeout',
      ],
    }),
  },
};
