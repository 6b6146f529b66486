import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { errors } from './app-error';
import type { SessionUser } from './session-user';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `app.authenticate` on protected routes: the user's session columns (session-user.ts). */
    user: SessionUser | null;
  }
  interface FastifyInstance {
    /** onRequest hook for protected routes: a valid bearer token or 401. */
    authenticate: onRequestAsyncHookHandler;
  }
}

/** Installs `app.authenticate`, backed by whatever resolves a bearer token to its user. */
export function registerAuthentication(
  app: FastifyInstance,
  resolveUser: (token: string) => Promise<SessionUser | null>,
): void {
  app.decorateRequest('user', null);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    const user = match?.[1] ? await resolveUser(match[1]) : null;
    if (!user) throw errors.notAuthenticated();
    request.user = user;
  });
}

/** The signed-in user of a request that passed `app.authenticate`. */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw errors.notAuthenticated();
  return request.user;
}
