import { createLocalJWKSet, exportJWK, generateKeyPair, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGoogleIdTokenVerifier } from '../src/adapters/google/id-token-verifier';
import { DEFAULT_PASSWORD, loginForm, signUpAndLogIn } from './support/factories';
import { type FuzzRoute, fuzzRoute, routeCollector } from './support/route-fuzz';
import { createDeck, reviewCard, saveCards } from './support/study';
import { createTestApp, type TestContext } from './support/test-app';

// Every route of the app, fuzzed with fast-check (fixed seed, so CI runs the same cases every time; FUZZ_SEED and
// FUZZ_RUNS change them, and `npm run bench -- fuzz` runs many more): hostile path parameters, query strings and
// bodies, as the attacker A, anonymous, or with a forged token. Never a 5xx; every error is { detail, code }; the
// victim B's rows are the same afterwards. The routes come from the app itself (Fastify's onRoute hook), so a route
// added later is fuzzed without touching this file.

const SEED = Number(process.env.FUZZ_SEED ?? 15);
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);

const collector = routeCollector();
let ctx: TestContext;
let attacker: Awaited<ReturnType<typeof signUpAndLogIn>>;
let victim: Awaited<ReturnType<typeof signUpAndLogIn>>;
const ids = { own: [] as string[], victim: [] as string[] };

async function victimSnapshot(): Promise<string> {
  const db = ctx.database.db;
  const userId = victim.user._id;
  const rows = {
    user: await db.selectFrom('users').selectAll().where('id', '=', userId).execute(),
    decks: await db.selectFrom('decks').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    cards: await db.selectFrom('cards').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    reviews: await db.selectFrom('review_logs').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    shares: await db.selectFrom('shares').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    payments: await db.selectFrom('payments').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
  };
  return JSON.stringify(rows);
}

let before: string;

beforeAll(async () => {
  const googleKey = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(googleKey.publicKey)), kid: 'k', alg: 'RS256', use: 'sig' };
  const clientId = 'fuzz.apps.googleusercontent.com';
  ctx = await createTestApp({
    env: {
      GOOGLE_CLIENT_ID: clientId,
      AUTH_RATE_LIMIT_PER_IP: '1000000',
      AUTH_RATE_LIMIT_PER_EMAIL: '1000000',
      FEEDBACK_RATE_LIMIT_PER_HOUR: '1000000',
      // A long run (bench/fuzz) answers more cards than the default allows: the fuzz is after what the answers hold.
      REVIEW_RATE_LIMIT_PER_DAY: '1000000000',
    },
    google: createGoogleIdTokenVerifier({ clientId, keys: createLocalJWKSet({ keys: [jwk] }) }),
    onRoute: collector.onRoute,
  });
  attacker = await signUpAndLogIn(ctx.app);
  victim = await signUpAndLogIn(ctx.app);
  for (const [session, list] of [
    [attacker, ids.own],
    [victim, ids.victim],
  ] as const) {
    const deck = await createDeck(ctx.app, session.headers, 'Deck');
    const cards = await saveCards(ctx.app, session.headers, deck._id, 3);
    await reviewCard(ctx.app, session.headers, cards[0]?._id as string, 'pass');
    const share = await ctx.app.inject({ method: 'POST', url: `/decks/${deck._id}/share`, headers: session.headers });
    list.push(session.user._id, deck._id, ...cards.map((card) => card._id), share.json().share_code);
  }
  before = await victimSnapshot();
});

afterAll(async () => {
  await ctx?.close();
});

let token: string | null = null;
async function attackerToken(): Promise<string> {
  // Signing out everywhere (a route the fuzzer calls) ends the attacker's own sessions: sign in again.
  const check = token
    ? await ctx.app.inject({ method: 'GET', url: '/users/me', headers: { authorization: `Bearer ${token}` } })
    : null;
  if (!token || check?.statusCode !== 200) {
    token = (await loginForm(ctx.app, attacker.user.email, DEFAULT_PASSWORD)).json().access_token as string;
  }
  return token as string;
}

describe('route fuzzing (fast-check)', () => {
  it('finds the app routes through onRoute', () => {
    const listed = collector.routes.map((route) => `${route.method} ${route.url}`);
    for (const known of ['POST /login', 'GET /decks/:id', 'POST /cards/review', 'DELETE /users/me', 'POST /create']) {
      expect(listed).toContain(known);
    }
  });

  it('every route: never 5xx, always { detail, code }, the victim unchanged', { timeout: 300_000 }, async () => {
    const routes: FuzzRoute[] = collector.routes;
    for (const route of routes) {
      let current: string | null = null;
      const tokenFor = async () => {
        if (route.url === '/users/me/sign-out-everywhere' || current === null) current = await attackerToken();
        return current;
      };
      await fuzzRoute(ctx.app, route, { ids, token: tokenFor, seed: SEED, numRuns: RUNS });
      if (route.url === '/users/me/sign-out-everywhere') token = null;
    }
    expect(await victimSnapshot()).toBe(before);
    // The victim can still sign in and see its deck.
    const login = await loginForm(ctx.app, victim.user.email, DEFAULT_PASSWORD);
    expect(login.statusCode).toBe(200);
  });
});
