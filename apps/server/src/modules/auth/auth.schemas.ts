import { limits } from '@flashcards/shared/limits';
import { serverMessages } from '@flashcards/shared/server-messages';
import { z } from 'zod';

/** Emails are compared trimmed and lower-cased. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

const email = z
  .string({ error: serverMessages.invalidEmail })
  .transform(normalizeEmail)
  .pipe(
    z.email({ error: serverMessages.invalidEmail }).max(limits.maxEmailLength, { error: serverMessages.invalidEmail }),
  );

export const signupSchema = z.object({
  email,
  password: z
    .string({ error: serverMessages.passwordTooShort })
    .min(limits.minPasswordLength, { error: serverMessages.passwordTooShort })
    .max(limits.maxPasswordLength, { error: serverMessages.passwordTooLong }),
  name: z
    .string()
    .trim()
    .max(limits.maxNameLength, { error: serverMessages.nameTooLong })
    .nullish()
    .transform((name) => name ?? ''),
});

export const loginSchema = z.object({
  username: z.string({ error: serverMessages.invalidCredentials }).transform(normalizeEmail),
  password: z.string({ error: serverMessages.invalidCredentials }).max(limits.maxPasswordLength, {
    error: serverMessages.invalidCredentials,
  }),
});

export const googleLoginSchema = z.object({
  credential: z
    .string({ error: serverMessages.googleTokenInvalid })
    .min(1, { error: serverMessages.googleTokenInvalid }),
});

export const changePasswordSchema = z.object({
  current_password: z
    .string({ error: serverMessages.invalidCredentials })
    .max(limits.maxPasswordLength, { error: serverMessages.invalidCredentials })
    .optional(),
  new_password: z
    .string({ error: serverMessages.passwordTooShort })
    .min(limits.minPasswordLength, { error: serverMessages.passwordTooShort })
    .max(limits.maxPasswordLength, { error: serverMessages.passwordTooLong }),
});

export const deleteAccountSchema = z.object({
  password: z
    .string({ error: serverMessages.passwordRequired })
    .max(limits.maxPasswordLength, { error: serverMessages.invalidCredentials })
    .optional(),
});
