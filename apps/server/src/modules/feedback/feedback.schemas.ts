import { limits } from '@flashcards/shared/limits';
import { serverMessages } from '@flashcards/shared/server-messages';
import { z } from 'zod';

/** POST /send-feedback: the text is required; the email is optional (blank counts as none). */
export const feedbackSchema = z.object({
  feedback: z
    .string({ error: serverMessages.feedbackEmpty })
    .trim()
    .min(1, { error: serverMessages.feedbackEmpty })
    .max(limits.maxFeedbackLength, { error: serverMessages.feedbackTooLong }),
  email: z
    .string({ error: serverMessages.invalidEmail })
    .trim()
    .nullish()
    .transform((value) => (value ? value.toLowerCase() : null))
    .pipe(
      z
        .email({ error: serverMessages.invalidEmail })
        .max(limits.maxEmailLength, { error: serverMessages.invalidEmail })
        .nullable(),
    ),
});
