import { noContent, tokenSchema, userSchema } from '../../http/api-schemas';
import { currentUser } from '../../http/authenticate';
import type { App } from '../../http/validation';
import {
  changePasswordSchema,
  deleteAccountSchema,
  googleLoginSchema,
  loginSchema,
  signupSchema,
} from './auth.schemas';
import type { AuthService } from './auth.service';
import { toUser } from './auth.service';

/** docs/api.md, "Accounts". */
export function authRoutes(app: App, auth: AuthService): void {
  const tags: ['Accounts'] = ['Accounts'];

  app.post(
    '/signup',
    {
      schema: {
        summary: 'Create an account with an email and a password',
        tags,
        body: signupSchema,
        response: { 201: userSchema },
        errors: ['email_taken', 'rate_limited'],
      },
    },
    async (request, reply) => reply.status(201).send(await auth.signup(request.body, request.ip)),
  );

  app.post(
    '/login',
    {
      schema: {
        summary: 'Sign in: form fields `username` (the email) and `password`',
        tags,
        consumes: 'form',
        body: loginSchema,
        response: { 200: tokenSchema },
        errors: ['invalid_credentials', 'rate_limited'],
      },
    },
    async (request) => auth.login(request.body, request.ip),
  );

  app.post(
    '/google-login',
    {
      schema: {
        summary: 'Sign in with a Google ID token; creates the account on first sign-in',
        tags,
        body: googleLoginSchema,
        response: { 200: tokenSchema },
        errors: ['invalid_google_token', 'google_email_unverified', 'google_login_unavailable', 'rate_limited'],
      },
    },
    async (request) => auth.googleLogin(request.body.credential, request.ip),
  );

  app.get(
    '/users/me',
    {
      onRequest: app.authenticate,
      schema: { summary: 'The signed-in user', tags, response: { 200: userSchema } },
    },
    async (request) => toUser(await auth.account(currentUser(request))),
  );

  // Account controls. A password change ends every other session; the new token for this one comes back in the
  // X-Access-Token response header (docs/api.md).
  app.put(
    '/users/me/password',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Change the password; other sessions end, the new token is in X-Access-Token',
        tags,
        body: changePasswordSchema,
        response: { 204: noContent('Changed') },
        errors: ['wrong_password', 'rate_limited'],
      },
    },
    async (request, reply) => {
      const { access_token } = await auth.changePassword(currentUser(request), request.body);
      return reply.header('x-access-token', access_token).status(204).send();
    },
  );

  app.post(
    '/users/me/sign-out-everywhere',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'End every session: tokens issued before this get 401',
        tags,
        response: { 204: noContent('Signed out everywhere') },
      },
    },
    async (request, reply) => {
      await auth.signOutEverywhere(currentUser(request));
      return reply.status(204).send();
    },
  );

  app.delete(
    '/users/me',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Delete the account and all its data (password, or a recent Google sign-in)',
        tags,
        body: deleteAccountSchema,
        response: { 204: noContent('Deleted') },
        errors: ['wrong_password', 'recent_sign_in_required', 'rate_limited'],
      },
    },
    async (request, reply) => {
      await auth.deleteAccount(currentUser(request), request.body);
      return reply.status(204).send();
    },
  );
}
