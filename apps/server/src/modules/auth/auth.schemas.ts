import { limits } from '@flashcards/shared/limits';
import { messages } from '@flashcards/shared/messages';
import { z } from 'zod';
import { tokenSchema, userSchema } from '../../http/api-schemas';
import { type ApiPaths, form, json, operation } from '../../http/openapi-legacy';

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

/** docs/api.md, "Accounts". */
export const authPaths: ApiPaths = {
  '/signup': {
    post: operation({
      summary: 'Create an account with an email and a password',
      tags: ['Accounts'],
      body: json(signupSchema),
      success: { status: 201, description: 'The new user', schema: userSchema },
      errors: ['email_taken', 'rate_limited'],
    }),
  },
  '/login': {
    post: operation({
      summary: 'Sign in: form fields `username` (the email) and `password`',
      tags: ['Accounts'],
      body: form(loginSchema),
      success: { status: 200, description: 'An access token', schema: tokenSchema },
      errors: ['invalid_credentials', 'rate_limited'],
    }),
  },
  '/google-login': {
    post: operation({
      summary: 'Sign in with a Google ID token; creates the account on first sign-in',
      tags: ['Accounts'],
      body: json(googleLoginSchema),
      success: { status: 200, description: 'An access token', schema: tokenSchema },
      errors: ['invalid_google_token', 'google_email_unverified', 'google_login_unavailable', 'rate_limited'],
    }),
  },
  '/users/me': {
    get: operation({
      summary: 'The signed-in user',
      tags: ['Accounts'],
      auth: true,
      success: { status: 200, description: 'The user', schema: userSchema },
    }),
    delete: operation({
      summary: 'Delete the account and all its data (password, or a recent Google sign-in)',
      tags: ['Accounts'],
      auth: true,
      body: json(deleteAccountSchema),
      success: { status: 204, description: 'Deleted' },
      errors: ['wrong_password', 'recent_sign_in_required', 'rate_limited'],
    }),
  },
  '/users/me/password': {
    put: operation({
      summary: 'Change the password; other sessions end, the new token is in X-Access-Token',
      tags: ['Accounts'],
      auth: true,
      body: json(changePasswordSchema),
      success: { status: 204, description: 'Changed' },
      errors: ['wrong_password', 'rate_limited'],
    }),
  },
  '/users/me/sign-out-everywhere': {
    post: operation({
      summary: 'End every session: tokens issued before this get 401',
      tags: ['Accounts'],
      auth: true,
      success: { status: 204, description: 'Signed out everywhere' },
    }),
  },
};
