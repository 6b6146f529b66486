import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

let counter = 0;
const run = randomBytes(4).toString('hex');

/** A unique email for this test run. */
export function uniqueEmail(prefix = 'learner'): string {
  counter += 1;
  return `${prefix}.${run}.${counter}@example.com`;
}

/** POST /login as the contract says: an url-encoded form with `username` and `password`. */
export function loginForm(app: FastifyInstance, username: string, password: string, remoteAddress?: string) {
  return app.inject({
    method: 'POST',
    url: '/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ username, password }).toString(),
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

/** POST /signup with `payload` as its JSON body; the answer is the caller's to check. */
export function postSignup(app: FastifyInstance, payload: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: '/signup', payload });
}

export const DEFAULT_PASSWORD = 'correct horse battery';

/** The Authorization header of a signed-in user, as `signUpAndLogIn` answers it. */
export type AuthHeaders = { authorization: string };

/** Signs a new user up and logs in; returns the user and an Authorization header for them. */
export async function signUpAndLogIn(
  app: FastifyInstance,
  email = uniqueEmail(),
  password = DEFAULT_PASSWORD,
): Promise<{ user: { _id: string; email: string }; token: string; headers: AuthHeaders }> {
  const signup = await postSignup(app, { email, password, name: 'Ada' });
  expect(signup.statusCode, signup.body).toBe(201);
  const login = await loginForm(app, email, password);
  expect(login.statusCode, login.body).toBe(200);
  const token = login.json<{ access_token: string }>().access_token;
  return { user: signup.json<{ _id: string; email: string }>(), token, headers: { authorization: `Bearer ${token}` } };
}

/** DELETE /users/me with the account's password; the answer is the caller's to check. */
export function deleteAccount(app: FastifyInstance, headers: AuthHeaders, password = DEFAULT_PASSWORD) {
  return app.inject({ method: 'DELETE', url: '/users/me', headers, payload: { password } });
}
