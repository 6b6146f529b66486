import { serverMessages } from '@flashcards/shared/server-messages';
import { generateKeyPair } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../../test/support/api-error';
import { DEFAULT_PASSWORD, signUpAndLogIn, uniqueEmail } from '../../../test/support/factories';
import { FakeGoogle, type GoogleClaims, type KeyPair } from '../../../test/support/google';
import { createTestApp, useTestApp } from '../../../test/support/test-app';

const CLIENT_ID = '1234567890-test.apps.googleusercontent.com';

const google = new FakeGoogle(CLIENT_ID, () => ctx.clock.now());
const ctx = useTestApp(async () => ({
  env: { GOOGLE_CLIENT_ID: CLIENT_ID, AUTH_RATE_LIMIT_PER_IP: '1000' },
  google: await google.verifier(),
}));
let strangerKey: KeyPair;

beforeAll(async () => {
  strangerKey = await generateKeyPair('RS256');
});

const idToken = (claims: GoogleClaims = {}) => google.idToken(claims);

const googleLogin = (credential: string) =>
  ctx.app.inject({ method: 'POST', url: '/google-login', payload: { credential } });

const me = (token: string) =>
  ctx.app.inject({ method: 'GET', url: '/users/me', headers: { authorization: `Bearer ${token}` } });

describe('POST /google-login', () => {
  it('creates the account on first sign-in and finds it again on the next', async () => {
    const email = uniqueEmail('google');
    const first = await googleLogin(await idToken({ sub: 'google-sub-1', email: email.toUpperCase(), name: 'Lin' }));
    expect(first.statusCode).toBe(200);
    expect(first.json().token_type).toBe('bearer');
    const user = (await me(first.json().access_token)).json();
    expect(user).toMatchObject({ email, name: 'Lin' });
    expect(user._id).toMatch(/^[0-9a-f]{24}$/);

    const second = await googleLogin(await idToken({ sub: 'google-sub-1', email }));
    expect(second.statusCode).toBe(200);
    expect((await me(second.json().access_token)).json()._id).toBe(user._id);
    const rows = await ctx.database.db.selectFrom('users').selectAll().where('email', '=', email).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ google_sub: 'google-sub-1', password_hash: null });
  });

  it('links to an existing password account by verified email, removing its unverified password and sessions', async () => {
    // Audit finding 4: someone signs up with the victim's address first; the victim later signs in with Google.
    const email = uniqueEmail();
    const { user, token: attackerToken } = await signUpAndLogIn(ctx.app, email);
    const response = await googleLogin(await idToken({ sub: 'google-sub-link', email }));
    expect(response.statusCode).toBe(200);
    expect(response.json().notice).toBe(serverMessages.googleLinkedPasswordRemoved);
    expect((await me(response.json().access_token)).json()._id).toBe(user._id);
    const row = await ctx.database.db.selectFrom('users').selectAll().where('id', '=', user._id).executeTakeFirst();
    expect(row?.google_sub).toBe('google-sub-link');
    expect(row?.password_hash).toBeNull();
    // The password set before the link no longer opens the account, and its token is dead.
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ username: email, password: DEFAULT_PASSWORD }).toString(),
    });
    expectError(login, 401, 'invalid_credentials', serverMessages.invalidCredentials);
    expect((await me(attackerToken)).statusCode).toBe(401);
    // The next Google sign-in finds the account by sub and says nothing more.
    const again = await googleLogin(await idToken({ sub: 'google-sub-link', email }));
    expect(again.json().notice).toBeUndefined();
  });

  it('refuses a second Google identity (another sub) with the email of an account bound to a different sub', async () => {
    // Audit finding 10.
    const email = uniqueEmail('shared-address');
    const owner = await googleLogin(await idToken({ sub: 'sub-original-owner', email }));
    expect(owner.statusCode).toBe(200);
    const ownerId = (await me(owner.json().access_token)).json()._id;
    const other = await googleLogin(await idToken({ sub: 'sub-someone-else', email }));
    expectError(other, 409, 'google_account_mismatch', serverMessages.googleAccountMismatch);
    const rows = await ctx.database.db.selectFrom('users').selectAll().where('email', '=', email).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: ownerId, google_sub: 'sub-original-owner' });
  });

  it('accepts the issuer spelt without a scheme', async () => {
    expect((await googleLogin(await idToken({ iss: 'accounts.google.com' }))).statusCode).toBe(200);
  });

  it.each([
    ['a wrong audience', { aud: 'someone-else.apps.googleusercontent.com' }],
    ['a wrong issuer', { iss: 'https://evil.example.com' }],
    ['an expired token', { expiresIn: -60 }],
    ['a token signed by another key', { key: undefined, kid: 'google-key-1', stranger: true }],
  ])('rejects %s with 401 and creates nobody', async (_name, claims) => {
    const email = uniqueEmail('rejected');
    const token = await idToken({ ...claims, email, ...('stranger' in claims ? { key: strangerKey } : {}) });
    const response = await googleLogin(token);
    expectError(response, 401, 'invalid_google_token', serverMessages.googleTokenInvalid);
    expect(await ctx.database.db.selectFrom('users').select('id').where('email', '=', email).execute()).toEqual([]);
  });

  it('rejects garbage and a missing credential', async () => {
    expect((await googleLogin('garbage')).statusCode).toBe(401);
    const missing = await ctx.app.inject({ method: 'POST', url: '/google-login', payload: {} });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({ detail: serverMessages.googleTokenInvalid, code: 'validation_failed' });
  });

  it('refuses an unverified email instead of linking it to an account', async () => {
    const email = uniqueEmail();
    const { user } = await signUpAndLogIn(ctx.app, email);
    const response = await googleLogin(await idToken({ email, email_verified: false }));
    expectError(response, 401, 'google_email_unverified', serverMessages.googleEmailUnverified);
    const row = await ctx.database.db.selectFrom('users').selectAll().where('id', '=', user._id).executeTakeFirst();
    expect(row?.google_sub).toBeNull();
  });
});

describe('without GOOGLE_CLIENT_ID', () => {
  it('answers 501 with a clear error, and /api/config offers no Google client id', async () => {
    const plain = await createTestApp();
    try {
      const response = await plain.app.inject({ method: 'POST', url: '/google-login', payload: { credential: 'x' } });
      expectError(response, 501, 'google_login_unavailable', serverMessages.googleLoginUnavailable);
      expect((await plain.app.inject({ method: 'GET', url: '/api/config' })).json().google_client_id).toBeNull();
    } finally {
      await plain.close();
    }
  });

  it('/api/config offers the client id when it is set', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/config' });
    expect(response.json().google_client_id).toBe(CLIENT_ID);
  });
});
