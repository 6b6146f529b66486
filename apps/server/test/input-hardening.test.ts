import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fillMessage } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, sqlitePath } from '../src/db/database';
import { MAX_INLINE_DECK_CARDS } from '../src/modules/decks/decks.service';
import { expectError } from './support/api-error';
import { DEFAULT_PASSWORD, signUpAndLogIn, uniqueEmail } from './support/factories';
import { multipartBody, postMultipart } from './support/multipart';
import { createDeck, saveCards } from './support/study';
import { createTestApp, type TestContext } from './support/test-app';

// Audit findings 11, 12, 17, 19, 20 and the INFO items on URLs, HSTS and Google logging: each answered 4xx
// { detail, code } the same way on SQLite and PostgreSQL, or fixed at its cause.

let ctx: TestContext;
let session: Awaited<ReturnType<typeof signUpAndLogIn>>;

beforeAll(async () => {
  ctx = await createTestApp({
    env: { AUTH_RATE_LIMIT_PER_IP: '1000', MAX_DECKS_PER_USER: '3', MAX_CARDS_PER_USER: '10' },
  });
  session = await signUpAndLogIn(ctx.app);
});

afterAll(async () => {
  await ctx.close();
});

const badRequest = { detail: serverMessages.malformedMultipart, code: 'bad_request' };
const nul = { detail: serverMessages.nulCharacter, code: 'validation_failed' };

describe('malformed multipart bodies get 400, not 500 (finding 11)', () => {
  const missingClosing = Buffer.from('--b\r\nContent-Disposition: form-data; name="username"\r\n\r\nx@y.z\r\n');
  it.each([
    ['/login', false],
    ['/decks', true],
    ['/create', true],
  ])('%s: missing closing boundary and no boundary at all', async (url, authenticated) => {
    const headers = authenticated ? session.headers : {};
    const cut = await ctx.app.inject({
      method: 'POST',
      url,
      headers: { ...headers, 'content-type': 'multipart/form-data; boundary=b' },
      payload: missingClosing,
    });
    expect(cut.statusCode, cut.body).toBe(400);
    expect(cut.json()).toEqual(badRequest);
    const noBoundary = await ctx.app.inject({
      method: 'POST',
      url,
      headers: { ...headers, 'content-type': 'multipart/form-data' },
      payload: 'x',
    });
    expect(noBoundary.statusCode, noBoundary.body).toBe(400);
    expect(noBoundary.json()).toEqual(badRequest);
  });
});

describe('a multipart body to a route that reads no form (outside the multipart scope, app.ts)', () => {
  it.each([
    ['POST', '/cards/review'],
    ['POST', '/save-cards'],
    ['POST', '/send-feedback'],
    ['PUT', '/users/me/settings'],
  ] as const)('%s %s: 400 unsupported content type, well-formed or cut short', async (method, url) => {
    const form = multipartBody([{ name: 'card_id', value: 'x' }]);
    for (const request of [
      { headers: form.headers, payload: form.payload },
      { headers: { 'content-type': 'multipart/form-data; boundary=b' }, payload: 'no closing boundary' },
      { headers: { 'content-type': 'multipart/form-data' }, payload: 'x' },
    ]) {
      const response = await ctx.app.inject({
        method,
        url,
        headers: { ...session.headers, ...request.headers },
        payload: request.payload,
      });
      expectError(response, 400, 'bad_request', serverMessages.unsupportedContentType);
    }
  });

  it('the routes that read forms still take them: a deck named in a multipart form', async () => {
    const response = await postMultipart(ctx.app, '/decks', session.headers, [
      { name: 'deck_name', value: 'From a form' },
    ]);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ name: 'From a form', card_count: 0 });
  });
});

describe('a NUL character in stored text is 422 on both databases (finding 12)', () => {
  it('signup, login, feedback, decks, cards, verify-subscription', async () => {
    const email = uniqueEmail();
    const cases = [
      { method: 'POST', url: '/signup', payload: { email, password: DEFAULT_PASSWORD, name: 'a\u0000b' } },
      {
        method: 'POST',
        url: '/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'username=a%00b%40c.de&password=whatever',
      },
      { method: 'POST', url: '/send-feedback', payload: { feedback: 'f\u0000' } },
      { method: 'POST', url: '/decks', headers: session.headers, payload: { deck_name: 'nul\u0000deck' } },
      { method: 'POST', url: '/api/verify-subscription', headers: session.headers, payload: { session_id: 'x\u0000' } },
    ] as const;
    for (const request of cases) {
      const response = await ctx.app.inject({
        method: request.method,
        url: request.url,
        headers: { ...session.headers, ...('headers' in request ? request.headers : {}) },
        payload: request.payload,
      });
      expect(response.statusCode, `${request.url}: ${response.body}`).toBe(422);
      expect(response.json()).toEqual(nul);
    }
    expect(await ctx.database.db.selectFrom('users').select('id').where('email', '=', email).execute()).toEqual([]);
    const deck = await createDeck(ctx.app, session.headers, 'NUL target');
    const card = await ctx.app.inject({
      method: 'POST',
      url: '/save-cards',
      headers: session.headers,
      payload: { deck_id: deck._id, cards: [{ question: 'q\u0000', answer: 'a' }] },
    });
    expect(card.statusCode).toBe(422);
    expect(card.json()).toEqual(nul);
    const viaMultipart = await postMultipart(ctx.app, '/decks', session.headers, [
      { name: 'deck_name', value: 'multi\u0000part' },
    ]);
    expect(viaMultipart.statusCode).toBe(422);
    expect(viaMultipart.json()).toEqual(nul);
    await ctx.app.inject({ method: 'DELETE', url: `/decks/${deck._id}`, headers: session.headers });
  });
});

describe('bad path parameters answer { detail, code } without echoing the URL', () => {
  it('an undecodable parameter (/decks/%ZZ) is 400', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/decks/%ZZ', headers: session.headers });
    expectError(response, 400, 'bad_request', serverMessages.badUrl);
  });

  it('a 3,000-character id is 414', async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/decks/${'a'.repeat(3000)}`,
      headers: session.headers,
    });
    expectError(response, 414, 'uri_too_long', serverMessages.urlTooLong);
    expect(response.body).not.toContain('aaaa');
  });
});

describe('headers', () => {
  it('API answers with user data carry Cache-Control: no-store (finding 17)', async () => {
    for (const url of ['/users/me', '/decks', '/cards/due', '/decks/stats', '/api/subscription-status']) {
      const response = await ctx.app.inject({ method: 'GET', url, headers: session.headers });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
    const refused = await ctx.app.inject({ method: 'GET', url: '/users/me' });
    expect(refused.headers['cache-control']).toBe('no-store');
  });

  it('HSTS without includeSubDomains unless HSTS_INCLUDE_SUBDOMAINS=true', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000');
    const opted = await createTestApp({ env: { HSTS_INCLUDE_SUBDOMAINS: 'true' } });
    try {
      const withSub = await opted.app.inject({ method: 'GET', url: '/healthz' });
      expect(withSub.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    } finally {
      await opted.close();
    }
  });
});

describe('per-user limits and a bounded GET /decks/{id} (finding 20)', () => {
  it('refuses a deck beyond MAX_DECKS_PER_USER and cards beyond MAX_CARDS_PER_USER, saving nothing', async () => {
    const user = await signUpAndLogIn(ctx.app);
    const decks = [];
    for (let i = 0; i < 3; i++) decks.push(await createDeck(ctx.app, user.headers, `Deck ${i}`));
    const fourth = await ctx.app.inject({
      method: 'POST',
      url: '/decks',
      headers: user.headers,
      payload: { deck_name: 'One too many' },
    });
    expect(fourth.statusCode).toBe(422);
    expect(fourth.json()).toEqual({
      detail: fillMessage(serverMessages.tooManyDecks, { max: 3 }),
      code: 'too_many_decks',
    });

    const deckId = decks[0]?._id as string;
    await saveCards(ctx.app, user.headers, deckId, 8);
    const over = await ctx.app.inject({
      method: 'POST',
      url: '/save-cards',
      headers: user.headers,
      payload: { deck_id: deckId, cards: [1, 2, 3].map((n) => ({ question: `q${n}`, answer: `a${n}` })) },
    });
    expect(over.statusCode).toBe(422);
    expect(over.json()).toEqual({
      detail: fillMessage(serverMessages.tooManyCardsInAccount, { max: 10 }),
      code: 'too_many_cards',
    });
    const count = await ctx.database.db.selectFrom('cards').select('id').where('user_id', '=', user.user._id).execute();
    expect(count).toHaveLength(8);
  });

  it('GET /decks/{id} carries at most 2000 cards and says when there are more', async () => {
    const big = await createTestApp({ shareWith: ctx, env: { MAX_CARDS_PER_USER: '5000' } });
    try {
      const user = await signUpAndLogIn(big.app);
      const deck = await createDeck(big.app, user.headers, 'Big');
      // Distinct texts per batch: a save skips cards the deck already has.
      for (let batch = 0; batch < 3; batch++) {
        const texts = Array.from({ length: 1000 }, (_, i) => ({
          question: `Q${batch}-${i}`,
          answer: `A${batch}-${i}`,
        }));
        await saveCards(big.app, user.headers, deck._id, texts);
      }
      const response = await big.app.inject({ method: 'GET', url: `/decks/${deck._id}`, headers: user.headers });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.card_count).toBe(3000);
      expect(body.flashcards).toHaveLength(MAX_INLINE_DECK_CARDS);
      expect(body.flashcards_truncated).toBe(true);
    } finally {
      await big.close();
    }
  });
});

describe('the SQLite files are private to the server user (finding 19)', () => {
  it('DATA_DIR is 0700 and the database 0600', async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'perm-')), 'data');
    const handle = openDatabase({ dataDir });
    try {
      await handle.db
        .selectFrom('users' as never)
        .selectAll()
        .execute()
        .catch(() => undefined);
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(statSync(sqlitePath(dataDir)).mode & 0o777).toBe(0o600);
    } finally {
      await handle.close();
    }
  });
});

describe('Google sign-in when it is not configured', () => {
  it('answers 501 without logging an error', async () => {
    const lines: string[] = [];
    const { buildApp } = await import('../src/app');
    const { loadConfig } = await import('../src/config');
    const { memoryRateLimiters } = await import('../src/adapters/rate-limit/rate-limiter');
    const { createIdGenerator } = await import('../src/adapters/ids');
    const app = await buildApp({
      config: loadConfig({ DATA_DIR: ctx.database.options.dataDir }),
      db: ctx.database.db,
      jwtSecret: 'x'.repeat(40),
      clock: ctx.clock,
      newId: createIdGenerator(ctx.clock),
      google: null,
      rateLimiters: memoryRateLimiters(),
      logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } },
    });
    try {
      const response = await app.inject({ method: 'POST', url: '/google-login', payload: { credential: 'x' } });
      expect(response.statusCode).toBe(501);
      expect(lines.filter((line) => JSON.parse(line).level >= 50)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
