import { serverMessages } from '@flashcards/shared/server-messages';
import { SignJWT, UnsecuredJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../../../test/support/api-error';
import { DEFAULT_PASSWORD, loginForm, postSignup, signUpAndLogIn, uniqueEmail } from '../../../test/support/factories';
import { createTestApp, TEST_JWT_SECRET, useTestApp } from '../../../test/support/test-app';

const hex24 = /^[0-9a-f]{24}$/;

const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });

describe('POST /signup', () => {
  it('creates the account and answers 201 with the User shape', async () => {
    const email = uniqueEmail();
    const response = await postSignup(ctx.app, {
      email: `  ${email.toUpperCase()} `,
      password: DEFAULT_PASSWORD,
      name: ' Ada Lovelace ',
    });
    expect(response.statusCode).toBe(201);
    const user = response.json();
    expect(Object.keys(user).sort()).toEqual(['_id', 'created_at', 'email', 'name', 'time_zone']);
    expect(user.time_zone).toBe('UTC');
    expect(user._id).toMatch(hex24);
    expect(user.email).toBe(email);
    expect(user.name).toBe('Ada Lovelace');
    expect(user.created_at).toBe(new Date(ctx.clock.now()).toISOString());

    const row = await ctx.database.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user._id)
      .executeTakeFirstOrThrow();
    expect(row.email).toBe(email);
    // argon2id with OWASP's parameters, never the password itself.
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row.password_hash).not.toContain(DEFAULT_PASSWORD);
  });

  it('answers 409 email_taken for an email already used, whatever its case', async () => {
    const email = uniqueEmail();
    await signUpAndLogIn(ctx.app, email);
    const response = await postSignup(ctx.app, {
      email: email.toUpperCase(),
      password: 'another password',
      name: 'Copy',
    });
    expectError(response, 409, 'email_taken', serverMessages.emailTaken);
    const rows = await ctx.database.db.selectFrom('users').select('id').where('email', '=', email).execute();
    expect(rows).toHaveLength(1);
  });

  it.each([
    [{ email: 'not-an-email', password: DEFAULT_PASSWORD }, serverMessages.invalidEmail, 'email'],
    [{ password: DEFAULT_PASSWORD }, serverMessages.invalidEmail, 'email'],
    [{ email: 'short@example.com', password: 'seven77' }, serverMessages.passwordTooShort, 'password'],
    [{ email: 'long@example.com', password: 'x'.repeat(1025) }, serverMessages.passwordTooLong, 'password'],
    [
      { email: 'name@example.com', password: DEFAULT_PASSWORD, name: 'n'.repeat(101) },
      serverMessages.nameTooLong,
      'name',
    ],
  ])('refuses %j with 422 and the rule it broke', async (payload, detail, field) => {
    const response = await postSignup(ctx.app, payload);
    expectValidationError(response, field, detail);
  });

  it('accepts a missing name as an empty one', async () => {
    const response = await postSignup(ctx.app, { email: uniqueEmail(), password: DEFAULT_PASSWORD });
    expect(response.statusCode).toBe(201);
    expect(response.json().name).toBe('');
  });
});

describe('POST /login and GET /users/me', () => {
  it('logs in with the url-encoded form and the token opens /users/me', async () => {
    const email = uniqueEmail();
    const signup = await postSignup(ctx.app, { email, password: DEFAULT_PASSWORD, name: 'Grace' });
    const login = await loginForm(ctx.app, email.toUpperCase(), DEFAULT_PASSWORD);
    expect(login.statusCode).toBe(200);
    const body = login.json();
    expect(Object.keys(body).sort()).toEqual(['access_token', 'token_type']);
    expect(body.token_type).toBe('bearer');

    const me = await ctx.app.inject({
      method: 'GET',
      url: '/users/me',
      headers: { authorization: `Bearer ${body.access_token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual(signup.json());
  });

  it('logs in with a multipart form (a browser FormData)', async () => {
    const email = uniqueEmail();
    await signUpAndLogIn(ctx.app, email);
    const form = new FormData();
    form.set('username', email);
    form.set('password', DEFAULT_PASSWORD);
    const request = new Request('http://localhost/login', { method: 'POST', body: form });
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/login',
      headers: Object.fromEntries(request.headers),
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().token_type).toBe('bearer');
  });

  it('answers 401 invalid_credentials with a detail for a wrong password or an unknown email', async () => {
    const email = uniqueEmail();
    await signUpAndLogIn(ctx.app, email);
    for (const [username, password] of [
      [email, 'wrong password'],
      [uniqueEmail('nobody'), DEFAULT_PASSWORD],
    ] as const) {
      const response = await loginForm(ctx.app, username, password);
      expectError(response, 401, 'invalid_credentials', serverMessages.invalidCredentials);
    }
  });

  describe('rejects every token it did not issue, or no longer honours, with 401', () => {
    let userId: string;
    let validToken: string;

    beforeAll(async () => {
      const session = await signUpAndLogIn(ctx.app);
      userId = session.user._id;
      validToken = session.token;
    });

    const me = (authorization?: string) =>
      ctx.app.inject({ method: 'GET', url: '/users/me', headers: authorization ? { authorization } : {} });

    const sign = (secret: string, alg = 'HS256', expiresInSeconds = 3600) => {
      const iat = Math.floor(ctx.clock.now() / 1000);
      return new SignJWT({})
        .setProtectedHeader({ alg })
        .setSubject(userId)
        .setIssuer('flashcards')
        .setAudience('flashcards-api')
        .setIssuedAt(iat)
        .setExpirationTime(iat + expiresInSeconds)
        .sign(new TextEncoder().encode(secret));
    };

    it('accepts the valid token (the control case)', async () => {
      expect((await me(`Bearer ${validToken}`)).statusCode).toBe(200);
      expect((await me(`Bearer ${await sign(TEST_JWT_SECRET)}`)).statusCode).toBe(200);
    });

    it.each([
      ['no header', async () => undefined],
      ['garbage', async () => 'Bearer not.a.token'],
      ['a non-bearer scheme', async () => `Basic ${Buffer.from('a:b').toString('base64')}`],
      ['another secret', async () => `Bearer ${await sign('another-secret-that-is-long-enough-0123456789')}`],
      ['another HMAC algorithm', async () => `Bearer ${await sign(TEST_JWT_SECRET, 'HS512')}`],
      [
        'alg none',
        async () =>
          `Bearer ${new UnsecuredJWT({}).setSubject(userId).setIssuer('flashcards').setAudience('flashcards-api').setIssuedAt().setExpirationTime('1h').encode()}`,
      ],
      ['an expired token', async () => `Bearer ${await sign(TEST_JWT_SECRET, 'HS256', -10)}`],
    ])('%s', async (_name, header) => {
      const response = await me(await header());
      expectError(response, 401, 'not_authenticated', serverMessages.notAuthenticated);
    });

    it('a token past its time to live, also one already accepted before', async () => {
      expect((await me(`Bearer ${validToken}`)).statusCode).toBe(200);
      ctx.clock.advance(ctx.config.tokenTtlMs + 1000);
      try {
        expect((await me(`Bearer ${validToken}`)).statusCode).toBe(401);
      } finally {
        ctx.clock.advance(-(ctx.config.tokenTtlMs + 1000));
      }
    });

    it('a token whose account no longer exists', async () => {
      const session = await signUpAndLogIn(ctx.app);
      await ctx.database.db.deleteFrom('users').where('id', '=', session.user._id).execute();
      expect((await me(`Bearer ${session.token}`)).statusCode).toBe(401);
    });
  });
});

describe('rate limits', () => {
  it('answers the eleventh failed login for one email from one address with 429 and Retry-After', async () => {
    const email = uniqueEmail();
    await signUpAndLogIn(ctx.app, email);
    for (let attempt = 1; attempt <= 10; attempt++) {
      const response = await loginForm(ctx.app, email, `wrong ${attempt}`, '10.0.0.1');
      expect(response.statusCode, `attempt ${attempt}`).toBe(401);
    }
    const eleventh = await loginForm(ctx.app, email, DEFAULT_PASSWORD, '10.0.0.1');
    expectError(eleventh, 429, 'rate_limited', serverMessages.rateLimited);
    const retryAfter = Number(eleventh.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // Another email is not affected.
    expect((await signUpAndLogIn(ctx.app)).token).toBeTruthy();
  });

  it('does not lock the owner out from their own address after someone else failed 10 times (lock-out rule)', async () => {
    const email = uniqueEmail();
    await signUpAndLogIn(ctx.app, email);
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect((await loginForm(ctx.app, email, 'wrong', '203.0.113.66')).statusCode).toBe(401);
    }
    expect((await loginForm(ctx.app, email, DEFAULT_PASSWORD, '203.0.113.66')).statusCode).toBe(429);
    expect((await loginForm(ctx.app, email, DEFAULT_PASSWORD, '198.51.100.7')).statusCode).toBe(200);
  });

  it('bounds guessing from many addresses: 10 x the per-email limit per account and window', async () => {
    const email = uniqueEmail();
    await signUpAndLogIn(ctx.app, email);
    for (let attempt = 1; attempt <= 100; attempt++) {
      const response = await loginForm(ctx.app, email, 'wrong', `10.1.${Math.floor(attempt / 10)}.${attempt % 10}`);
      expect(response.statusCode, `attempt ${attempt}`).toBe(401);
    }
    const fresh = await loginForm(ctx.app, email, DEFAULT_PASSWORD, '10.2.0.1');
    expectError(fresh, 429, 'rate_limited', serverMessages.rateLimited);
  });

  it('counts parallel attempts before checking them: of 20 at once, at most 10 passwords are checked', async () => {
    // Audit finding 5: the check and the count were separate steps, so all 20 were checked.
    const email = uniqueEmail();
    await signUpAndLogIn(ctx.app, email);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => loginForm(ctx.app, email, `nope-${i}`, '10.3.0.1')),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
  });

  it('a successful login clears the failures counted so far', async () => {
    const email = uniqueEmail();
    await signUpAndLogIn(ctx.app, email);
    for (let round = 0; round < 2; round++) {
      for (let attempt = 1; attempt <= 9; attempt++) {
        expect((await loginForm(ctx.app, email, 'wrong')).statusCode).toBe(401);
      }
      expect((await loginForm(ctx.app, email, DEFAULT_PASSWORD)).statusCode).toBe(200);
    }
  });

  it('limits sign-up and login attempts per client address', async () => {
    const limited = await createTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '3' } });
    try {
      const signup = (remoteAddress: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/signup',
          remoteAddress,
          payload: { email: uniqueEmail(), password: DEFAULT_PASSWORD },
        });
      for (let attempt = 1; attempt <= 3; attempt++) expect((await signup('192.0.2.1')).statusCode).toBe(201);
      const fourth = await signup('192.0.2.1');
      expect(fourth.statusCode).toBe(429);
      expect(fourth.json().code).toBe('rate_limited');
      expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
      const login = await loginForm(limited.app, uniqueEmail(), DEFAULT_PASSWORD, '192.0.2.1');
      expect(login.statusCode).toBe(429);
      expect((await signup('192.0.2.2')).statusCode).toBe(201);
    } finally {
      await limited.close();
    }
  });
});
