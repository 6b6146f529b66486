import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { expectError } from '../../../test/support/api-error';
import {
  DEFAULT_PASSWORD,
  deleteAccount,
  loginForm,
  postSignup,
  signUpAndLogIn,
  uniqueEmail,
} from '../../../test/support/factories';
import { FakeGoogle } from '../../../test/support/google';
import { createDeck, reviewCard, saveCards } from '../../../test/support/study';
import { useTestApp } from '../../../test/support/test-app';

// docs/api.md, "Account controls": PUT /users/me/password, POST /users/me/sign-out-everywhere, DELETE /users/me.

const CLIENT_ID = 'account-controls-test.apps.googleusercontent.com';
const google = new FakeGoogle(CLIENT_ID, () => ctx.clock.now());
const ctx = useTestApp(async () => ({
  env: { GOOGLE_CLIENT_ID: CLIENT_ID, AUTH_RATE_LIMIT_PER_IP: '1000' },
  google: await google.verifier(),
}));

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const me = (token: string) => ctx.app.inject({ method: 'GET', url: '/users/me', headers: auth(token) });

/** Two sessions of a new account with the default password: the email and both tokens. */
async function twoSessions() {
  const email = uniqueEmail();
  const { token } = await signUpAndLogIn(ctx.app, email);
  const other = (await loginForm(ctx.app, email, DEFAULT_PASSWORD)).json().access_token as string;
  return { email, token, other };
}

function changePassword(token: string, payload: { current_password?: string; new_password: string }) {
  return ctx.app.inject({ method: 'PUT', url: '/users/me/password', headers: auth(token), payload });
}

async function googleSession(sub: string, email = uniqueEmail('g')): Promise<string> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/google-login',
    payload: { credential: await google.idToken({ sub, email, name: 'G' }) },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().access_token;
}

describe('PUT /users/me/password', () => {
  it('changes the password, ends other sessions and hands this one a new token in X-Access-Token', async () => {
    const { email, token, other } = await twoSessions();
    const response = await changePassword(token, {
      current_password: DEFAULT_PASSWORD,
      new_password: 'a brand new secret',
    });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const fresh = response.headers['x-access-token'] as string;
    expect((await me(fresh)).statusCode).toBe(200);
    expect((await me(token)).statusCode).toBe(401);
    expect((await me(other)).statusCode).toBe(401);
    expect((await loginForm(ctx.app, email, DEFAULT_PASSWORD)).statusCode).toBe(401);
    expect((await loginForm(ctx.app, email, 'a brand new secret')).statusCode).toBe(200);
  });

  it('refuses a wrong current password with 403 wrong_password (the session goes on) and a short new one with 422, changing nothing', async () => {
    const email = uniqueEmail();
    const { token } = await signUpAndLogIn(ctx.app, email);
    const wrong = await changePassword(token, {
      current_password: 'not it at all',
      new_password: 'a brand new secret',
    });
    expectError(wrong, 403, 'wrong_password', serverMessages.wrongPassword);
    expect((await me(token)).statusCode).toBe(200);
    const missing = await changePassword(token, { new_password: 'a brand new secret' });
    expectError(missing, 403, 'wrong_password', serverMessages.wrongPassword);
    const short = await changePassword(token, { current_password: DEFAULT_PASSWORD, new_password: 'short' });
    expect(short.statusCode).toBe(422);
    expect(short.json()).toMatchObject({ detail: serverMessages.passwordTooShort, code: 'validation_failed' });
    expect((await me(token)).statusCode).toBe(200);
    expect((await loginForm(ctx.app, email, DEFAULT_PASSWORD)).statusCode).toBe(200);
  });

  it('lets a Google-only account set its first password without a current one', async () => {
    const email = uniqueEmail('g');
    const token = await googleSession('sub-first-password', email);
    const response = await changePassword(token, { new_password: 'my first password' });
    expect(response.statusCode).toBe(204);
    expect((await loginForm(ctx.app, email, 'my first password')).statusCode).toBe(200);
  });

  it('needs a token', async () => {
    const response = await ctx.app.inject({ method: 'PUT', url: '/users/me/password', payload: {} });
    expectError(response, 401, 'not_authenticated', serverMessages.notAuthenticated);
  });
});

describe('POST /users/me/sign-out-everywhere', () => {
  it('makes every token issued before it answer 401; signing in again works', async () => {
    const { email, token, other: second } = await twoSessions();
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/users/me/sign-out-everywhere',
      headers: auth(token),
    });
    expect(response.statusCode).toBe(204);
    for (const old of [token, second]) {
      const refused = await me(old);
      expectError(refused, 401, 'not_authenticated', serverMessages.notAuthenticated);
    }
    const again = (await loginForm(ctx.app, email, DEFAULT_PASSWORD)).json().access_token;
    expect((await me(again)).statusCode).toBe(200);
  });
});

describe('DELETE /users/me', () => {
  it('deletes the account and all its data; keeps payment records without the person; the email can sign up again', async () => {
    const email = uniqueEmail();
    const { user, token, headers } = await signUpAndLogIn(ctx.app, email);
    const other = await signUpAndLogIn(ctx.app);
    const otherDeck = await createDeck(ctx.app, other.headers, 'Not mine');
    await saveCards(ctx.app, other.headers, otherDeck._id, 2);

    const deck = await createDeck(ctx.app, headers);
    const cards = await saveCards(ctx.app, headers, deck._id, 3);
    await reviewCard(ctx.app, headers, cards[0]?._id as string, 'pass');
    const share = await ctx.app.inject({ method: 'POST', url: `/decks/${deck._id}/share`, headers });
    const code = share.json().share_code as string;
    await ctx.app.inject({ method: 'POST', url: '/send-feedback', headers, payload: { feedback: 'hello' } });
    const checkout = await ctx.app.inject({
      method: 'POST',
      url: '/api/create-subscription',
      headers,
      payload: { plan_type: 'generations' },
    });
    const path = new URL(checkout.json().checkout_url).pathname;
    expect((await ctx.app.inject({ method: 'POST', url: `${path}/pay` })).statusCode).toBe(303);

    const wrong = await ctx.app.inject({ method: 'DELETE', url: '/users/me', headers, payload: { password: 'nope' } });
    expectError(wrong, 403, 'wrong_password', serverMessages.wrongPassword);
    expect((await me(token)).statusCode).toBe(200);
    const missing = await ctx.app.inject({ method: 'DELETE', url: '/users/me', headers, payload: {} });
    expectError(missing, 403, 'wrong_password', serverMessages.wrongPassword);
    expect((await me(token)).statusCode).toBe(200);

    const response = await deleteAccount(ctx.app, headers);
    expect(response.statusCode).toBe(204);
    expect((await me(token)).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'GET', url: `/shared/${code}` })).statusCode).toBe(404);
    const db = ctx.database.db;
    for (const table of ['decks', 'cards', 'review_logs', 'shares', 'payments', 'checkout_sessions'] as const) {
      const rows = await db.selectFrom(table).select('user_id').where('user_id', '=', user._id).execute();
      expect(rows, table).toEqual([]);
    }
    expect(await db.selectFrom('users').select('id').where('id', '=', user._id).execute()).toEqual([]);
    expect(await db.selectFrom('feedback').select('id').where('feedback', '=', 'hello').execute()).toEqual([]);
    const retained = await db.selectFrom('retained_payments').selectAll().execute();
    expect(retained.some((row) => row.plan_type === 'generations' && row.amount_cents === 699)).toBe(true);
    expect(JSON.stringify(retained)).not.toContain(user._id);
    expect(JSON.stringify(retained)).not.toContain(email);
    // Another user's data is untouched.
    const otherCards = await db.selectFrom('cards').select('id').where('user_id', '=', other.user._id).execute();
    expect(otherCards).toHaveLength(2);
    // The address is free again.
    const again = await postSignup(ctx.app, { email, password: DEFAULT_PASSWORD, name: 'Again' });
    expect(again.statusCode).toBe(201);
  });

  it('deletes a Google-only account only within 10 minutes of a Google sign-in', async () => {
    const token = await googleSession('sub-delete-me');
    ctx.clock.advance(11 * 60_000);
    const stale = await ctx.app.inject({ method: 'DELETE', url: '/users/me', headers: auth(token), payload: {} });
    expectError(stale, 403, 'recent_sign_in_required', serverMessages.recentGoogleSignInRequired);
    const fresh = await googleSession('sub-delete-me');
    const deleted = await ctx.app.inject({ method: 'DELETE', url: '/users/me', headers: auth(fresh), payload: {} });
    expect(deleted.statusCode).toBe(204);
    expect((await me(fresh)).statusCode).toBe(401);
  });
});
