import { limits } from '@flashcards/shared/limits';
import { messages } from '@flashcards/shared/messages';
import { z } from 'zod';

/** POST /send-feedback: the text is required; the email is optional (blank counts as none). */
export const feedbackSchema = z.object({
  feedback: z
    .string({ error: messages.feedbackEmpty })
    .trim()
    .min(1, { error: messages.feedbackEmpty })
    .max(limits.maxFeedbackLength, { error: messages.feedbackTooLong }),
  email: z
    .string({ error: messages.invalidEmail })
    .trim()
    .nullish()
    .transform((value) => (value ? value.toLowerCase() : null))
    .pipe(
      z.email({ error: messages.invalidEmail }).max(limits.maxEmailLength, { error: messages.invalidEmail }).nullable(),
    ),
});
