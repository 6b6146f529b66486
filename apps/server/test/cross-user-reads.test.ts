import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignDeck, createClass, joinClass } from './support/classes';
import { signUpAndLogIn } from './support/factories';
import { type FuzzRoute, routeCollector } from './support/route-fuzz';
import { createDeck, reviewCard, saveCards } from './support/study';
import { createTestApp, type TestContext } from './support/test-app';

// Every read endpoint the app registers (found through onRoute, as the fuzz test finds them), called by user B with
// user A's ids in the path and in the `deck_id` filter. B must see none of A's rows: an id of A's answers exactly
// as an id that never existed (the contract's 404), and what B reads does not move when A studies more. A read that
// drops its user_id filter shows A's rows, or A's activity, to B.

const collector = routeCollector();
let ctx: TestContext;
type Session = Awaited<ReturnType<typeof signUpAndLogIn>>;
let owner: Session;
let reader: Session;

/** A's ids and texts, none of which may appear in what B reads. */
const owned = {
  decks: [] as string[],
  cards: [] as string[],
  shareCode: '',
  checkoutId: '',
  portalToken: '',
  classId: '',
};
const marker = 'zanzibarquokka';
const missingId = 'aaaaaaaaaaaaaaaaaaaaaaaa';

/**
 * Routes whose link is the permission, by design: a share link shows the deck to anyone who has it (docs/api.md),
 * a media name is an unguessable capability, and test-mode checkout and billing pages are reached by their tokens.
 * What they may show is the shared content, never the owner's account.
 */
const capabilityRoutes = new Set(['/shared/:code', '/media/:name', '/test-checkout/:id', '/test-billing/:token']);

beforeAll(async () => {
  ctx = await createTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000' }, onRoute: collector.onRoute });
  owner = await signUpAndLogIn(ctx.app);
  reader = await signUpAndLogIn(ctx.app);

  const deck = await createDeck(ctx.app, owner.headers, `Private ${marker}`);
  owned.decks.push(deck._id);
  const cards = await saveCards(
    ctx.app,
    owner.headers,
    deck._id,
    Array.from({ length: 4 }, (_, i) => ({ question: `${marker} question ${i}`, answer: `${marker} answer ${i}` })),
  );
  owned.cards.push(...cards.map((card) => card._id));
  await reviewCard(ctx.app, owner.headers, owned.cards[0] as string, 'pass');
  await reviewCard(ctx.app, owner.headers, owned.cards[1] as string, 'fail');
  const share = await ctx.app.inject({ method: 'POST', url: `/decks/${deck._id}/share`, headers: owner.headers });
  expect(share.statusCode, share.body).toBe(200);
  owned.shareCode = share.json().share_code;
  const checkout = await ctx.app.inject({
    method: 'POST',
    url: '/api/create-subscription',
    headers: owner.headers,
    payload: { plan_type: 'generations' },
  });
  expect(checkout.statusCode, checkout.body).toBe(200);
  owned.checkoutId = new URL(checkout.json().checkout_url).pathname.split('/').pop() as string;
  const portal = await ctx.app.inject({ method: 'POST', url: '/api/billing-portal', headers: owner.headers });
  expect(portal.statusCode, portal.body).toBe(200);
  owned.portalToken = new URL(portal.json().url).pathname.split('/').pop() as string;
  // A teaches a class with A's deck assigned, and a third user studies it, so the class's reads have rows to leak.
  const klass = await createClass(ctx.app, owner.headers, `Class ${marker}`);
  owned.classId = klass._id;
  await assignDeck(ctx.app, owner.headers, klass._id, deck._id);
  const student = await signUpAndLogIn(ctx.app);
  await joinClass(ctx.app, student.headers, klass.join_code);
  const copy = await ctx.app.inject({ method: 'GET', url: '/decks', headers: student.headers });
  const copyId = copy.json()[0]._id as string;
  const copyCards = await ctx.app.inject({ method: 'GET', url: `/decks/${copyId}/cards`, headers: student.headers });
  await reviewCard(ctx.app, student.headers, copyCards.json()[0]._id, 'fail');

  // B studies too, so that a read that mixes users has something of B's to mix A's rows into.
  const own = await createDeck(ctx.app, reader.headers, 'Mine');
  const mine = await saveCards(ctx.app, reader.headers, own._id, 3);
  await reviewCard(ctx.app, reader.headers, mine[0]?._id as string, 'pass');
});

afterAll(async () => {
  await ctx?.close();
});

/** The value of one path parameter: A's id of the kind the route takes, or a never-existing one. */
function paramValue(route: string, param: string, whose: 'owner' | 'missing'): string {
  const mine = whose === 'owner';
  if (param === 'code') return mine ? owned.shareCode : 'Zz9Zz9Zz9Zz9';
  if (param === 'token') return mine ? owned.portalToken : `bps_test_${'x'.repeat(32)}`;
  if (param === 'name') return `${'0'.repeat(40)}.png`;
  if (route.startsWith('/test-checkout/')) return mine ? owned.checkoutId : `cs_test_${'x'.repeat(32)}`;
  if (route.startsWith('/cards/')) return mine ? (owned.cards[0] as string) : missingId;
  if (route.startsWith('/classes/')) return mine ? owned.classId : missingId;
  return mine ? (owned.decks[0] as string) : missingId;
}

function pathFor(route: string, whose: 'owner' | 'missing'): string {
  return route.replace(/:(\w+)/g, (_match, param: string) => encodeURIComponent(paramValue(route, param, whose)));
}

/** The calls made on each read route: without a query, with A's deck as the filter, and a search for A's text. */
function callsFor(route: FuzzRoute): { label: string; url: string; baseline: string }[] {
  const owner = pathFor(route.url, 'owner');
  const missing = pathFor(route.url, 'missing');
  const deck = owned.decks[0] as string;
  const calls = [
    { label: 'no query', url: owner, baseline: missing },
    { label: 'A’s deck_id', url: `${owner}?deck_id=${deck}`, baseline: `${missing}?deck_id=${missingId}` },
    { label: 'search A’s text', url: `${owner}?q=${marker}`, baseline: `${missing}?q=${marker}` },
    {
      label: 'search A’s text in A’s deck',
      url: `${owner}?q=${marker}&deck_id=${deck}`,
      baseline: `${missing}?q=${marker}&deck_id=${missingId}`,
    },
  ];
  return calls;
}

interface Seen {
  route: string;
  label: string;
  status: number;
  body: string;
}

async function readAsB(url: string) {
  return ctx.app.inject({ method: 'GET', url, headers: reader.headers });
}

/** Walks every GET route as B and checks each answer; returns what B saw, for the second walk to compare. */
async function walk(): Promise<Seen[]> {
  const seen: Seen[] = [];
  const routes = collector.routes.filter((route) => route.method === 'GET');
  for (const route of routes) {
    for (const call of callsFor(route)) {
      const response = await readAsB(call.url);
      const where = `GET ${call.url} (${route.url}, ${call.label}): ${response.statusCode} ${response.body.slice(0, 300)}`;
      expect(response.statusCode, where).toBeLessThan(500);
      // Never A's account; outside a capability link, never A's decks, cards or texts either.
      const forbidden = [owner.user._id, owner.user.email];
      if (!capabilityRoutes.has(route.url)) {
        forbidden.push(
          ...owned.decks,
          ...owned.cards,
          owned.shareCode,
          owned.checkoutId,
          owned.portalToken,
          owned.classId,
          marker,
        );
      }
      for (const secret of forbidden) expect(response.body, where).not.toContain(secret);

      if (!capabilityRoutes.has(route.url)) {
        // An id of A's answers exactly as an id that never existed.
        const baseline = await readAsB(call.baseline);
        expect(response.statusCode, where).toBe(baseline.statusCode);
        expect(response.body, where).toBe(baseline.body);
        // A path id of A's is the contract's 404, never a 2xx.
        if (route.url.includes(':')) expect(response.statusCode, where).toBe(404);
      }
      seen.push({ route: route.url, label: call.label, status: response.statusCode, body: response.body });
    }
  }
  return seen;
}

describe('user B reading with user A’s ids, on every read route', () => {
  let first: Seen[];

  it('finds the read routes through onRoute, those with ids among them', () => {
    const reads = collector.routes.filter((route) => route.method === 'GET').map((route) => route.url);
    for (const known of [
      '/decks',
      '/decks/:id',
      '/decks/:id/cards',
      '/decks/:id/stats',
      '/decks/:id/export.apkg',
      '/decks/stats',
      '/cards/due',
      '/cards/search',
      '/stats/history',
      '/stats/forecast',
      '/scheduling',
      '/api/subscription-status',
      '/api/payments',
      '/shared/:code',
      '/classes',
      '/classes/:id',
      '/classes/:id/progress',
      '/classes/:id/progress.csv',
    ]) {
      expect(reads).toContain(known);
    }
  });

  it('answers B with none of A’s rows, and A’s ids exactly as ids that never existed', async () => {
    first = await walk();
    // The filtered reads refuse A's deck as the contract says, rather than ignoring the filter.
    for (const route of ['/cards/due', '/stats/history', '/stats/forecast', '/decks/:id/cards']) {
      const filtered = first.find((seen) => seen.route === route && seen.label === 'A’s deck_id');
      expect(filtered?.status, route).toBe(404);
      expect(JSON.parse(filtered?.body ?? '{}').code, route).toBe('deck_not_found');
    }
    // The share link is a capability: it shows the shared deck, never its owner's account.
    const shared = first.find((seen) => seen.route === '/shared/:code' && seen.label === 'no query');
    expect(shared?.status).toBe(200);
    expect(JSON.parse(shared?.body ?? '{}')).toMatchObject({ deck_name: `Private ${marker}`, card_count: 4 });
  });

  it('B reads the same before and after A studies more: no count, row or day of A’s reaches B', async () => {
    const more = await createDeck(ctx.app, owner.headers, `More ${marker}`);
    const extra = await saveCards(ctx.app, owner.headers, more._id, [{ question: `${marker} extra`, answer: 'x' }]);
    for (const cardId of [...owned.cards, extra[0]?._id as string]) {
      await reviewCard(ctx.app, owner.headers, cardId, 'pass');
    }
    ctx.clock.advance(2 * 86_400_000);
    try {
      await reviewCard(ctx.app, owner.headers, owned.cards[2] as string, 'fail');
    } finally {
      ctx.clock.advance(-2 * 86_400_000);
    }
    const second = await walk();
    expect(second.length).toBe(first.length);
    second.forEach((now, index) => {
      const before = first[index];
      expect(now, `GET ${now.route} (${now.label}) changed after A studied`).toEqual(before);
    });
  });
});
