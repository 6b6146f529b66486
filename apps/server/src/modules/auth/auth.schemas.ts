import { limits } from '@flashcards/shared/limits';
import { messages } from '@flashcards/shared/messages';
import { z } from 'zod';

/** Emails are compared trimmed and lower-cased. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

const email = z
  .string({ error: messages.invalidEmail })
  .transform(normalizeEmail)
  .pipe(z.email({ error: messages.invalidEmail }).max(limits.maxEmailLength, { error: messages.invalidEmail }));

export const signupSchema = z.object({
  email,
  password: z
    .string({ error: messages.passwordTooShort })
    .min(limits.minPasswordLength, { error: messages.passwordTooShort })
    .max(limits.maxPasswordLength, { error: messages.passwordTooLong }),
  name: z
    .string()
    .trim()
    .max(limits.maxNameLength, { error: messages.nameTooLong })
    .nullish()
    .transform((name) => name ?? ''),
});

export const loginSchema = z.object({
  username: z.string({ error: messages.invalidCredentials }).transform(normalizeEmail),
  password: z.string({ error: messages.invalidCredentials }).max(limits.maxPasswordLength, {
    error: messages.invalidCredentials,
  }),
});

export const googleLoginSchema = z.object({
  credential: z.string({ error: messages.googleTokenInvalid }).min(1, { error: messages.googleTokenInvalid }),
});

export const changePasswordSchema = z.object({
  current_password: z
    .string({ error: messages.invalidCredentials })
    .max(limits.maxPasswordLength, { error: messages.invalidCredentials })
    .optional(),
  new_password: z
    .string({ error: messages.passwordTooShort })
    .min(limits.minPasswordLength, { error: messages.passwordTooShort })
    .max(limits.maxPasswordLength, { error: messages.passwordTooLong }),
});

export const deleteAccountSchema = z.object({
  password: z
    .string({ error: messages.passwordRequired })
    .max(limits.maxPasswordLength, { error: messages.invalidCredentials })
    .optional(),
});
