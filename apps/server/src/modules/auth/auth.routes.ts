import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../http/authenticate';
import { readFormFields } from '../../http/form-fields';
import { parseInput } from '../../http/validation';
import {
  changePasswordSchema,
  deleteAccountSchema,
  googleLoginSchema,
  loginSchema,
  signupSchema,
} from './auth.schemas';
import type { AuthService } from './auth.service';
import { toUser } from './auth.service';

export function authRoutes(app: FastifyInstance, auth: AuthService): void {
  app.post('/signup', async (request, reply) => {
    const input = parseInput(signupSchema, request.body);
    return reply.status(201).send(await auth.signup(input, request.ip));
  });

  app.post('/login', async (request) => {
    const input = parseInput(loginSchema, await readFormFields(request));
    return auth.login(input, request.ip);
  });

  app.post('/google-login', async (request) => {
    const { credential } = parseInput(googleLoginSchema, request.body);
    return auth.googleLogin(credential, request.ip);
  });

  app.get('/users/me', { onRequest: app.authenticate }, async (request) =>
    toUser(await auth.account(currentUser(request))),
  );

  // Account controls. A password change ends every other session; the new token for this one comes back in the
  // X-Access-Token response header (docs/api.md).
  app.put('/users/me/password', { onRequest: app.authenticate }, async (request, reply) => {
    const input = parseInput(changePasswordSchema, request.body);
    const { access_token } = await auth.changePassword(currentUser(request), input);
    return reply.header('x-access-token', access_token).status(204).send();
  });

  app.post('/users/me/sign-out-everywhere', { onRequest: app.authenticate }, async (request, reply) => {
    await auth.signOutEverywhere(currentUser(request));
    return reply.status(204).send();
  });

  app.delete('/users/me', { onRequest: app.authenticate }, async (request, reply) => {
    const input = parseInput(deleteAccountSchema, request.body);
    await auth.deleteAccount(currentUser(request), input);
    return reply.status(204).send();
  });
}
