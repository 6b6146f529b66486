import { type CardStyle, cardStyles } from '@flashcards/shared/api-types';
import { limits } from '@flashcards/shared/limits';
import { serverMessages } from '@flashcards/shared/server-messages';
import { z } from 'zod';
import { errors } from '../../http/app-error';

const cardStyleSchema = z.enum(cardStyles).default('basic');

/**
 * POST /create's `card_style` as sent (absent: basic); anything else than the three styles is 422 validation_failed.
 * Checked by the route itself, as the parts are streamed (docs/api.md, "Card generation").
 */
export function cardStyleOf(value: unknown): CardStyle {
  const parsed = cardStyleSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw errors.validationFailed({
    message: 'cardStyleInvalid',
    errors: [{ field: 'card_style', message: serverMessages.cardStyleInvalid }],
  });
}

/** POST /create's parts (the route streams them: generation.routes.ts; a JSON or form body may carry `text`). */
export const generationForm = z.object({
  text: z.string().max(limits.maxTextLength).optional(),
  file: z
    .string()
    .meta({ format: 'binary', description: 'PDF, TXT, DOCX, DOC, PPTX, JPG or PNG, up to 10 MB' })
    .optional(),
  deck_id: z.string().optional().meta({
    description:
      "The user's deck to check for duplicates: a card stating what one of its cards states gets `duplicate_of`",
  }),
  card_style: z.enum(cardStyles).optional().meta({
    description: '`basic` (default): questions and answers; `cloze`: cloze notes; `mixed`: either, per card',
  }),
});
