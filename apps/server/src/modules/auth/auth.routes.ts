import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../http/authenticate';
import { readFormFields } from '../../http/form-fields';
import { parseInput } from '../../http/validation';
import { googleLoginSchema, loginSchema, signupSchema } from './auth.schemas';
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

  app.get('/users/me', { onRequest: app.authenticate }, async (request) => toUser(currentUser(request)));
}
