import type { ChildProcess } from 'node:child_process';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBuiltServer, stopBuiltServer } from './support/built-server';
import { DEFAULT_PASSWORD, uniqueEmail } from './support/factories';
import { createTestDatabase, type TestDatabase } from './support/test-database';

// Crashes lose nothing: the built server (as `npm start` runs it) as a real process, driven with card saves and
// reviews, killed with SIGKILL in each of ROUNDS rounds right after a seeded number of acknowledged writes (the other
// writes in flight), and started again on the same data.
// Every write the server acknowledged must be there afterwards, each card's reps must equal its review-log entries,
// the decks' counters must agree with their cards, and (SQLite) PRAGMA integrity_check must say ok. On PostgreSQL
// (DATABASE_URL set) the app server is what gets killed. The kill moments come from a fixed seed.

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 20);
const SEED = Number(process.env.CRASH_SEED ?? 9);
const JWT_SECRET = 'crash-test-secret-that-is-long-enough-0123456789';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.destroy();
});

interface Server {
  url: string;
  child: ChildProcess;
}

async function start(): Promise<Server> {
  const { child, listening } = launchBuiltServer(database, { JWT_SECRET, AUTH_RATE_LIMIT_PER_IP: '100000' });
  return { url: await listening, child };
}

function kill(server: Server): Promise<void> {
  return stopBuiltServer(server.child, 'SIGKILL');
}

async function call(url: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  const { json, ...rest } = init;
  return fetch(url, {
    ...rest,
    ...(json !== undefined
      ? { body: JSON.stringify(json), headers: { ...rest.headers, 'content-type': 'application/json' } }
      : {}),
  });
}

describe('crashes lose nothing', () => {
  it(`${ROUNDS} rounds of SIGKILL during saves and reviews`, { timeout: 240_000 }, async () => {
    // Each round's kill comes right after its k-th acknowledged write, while the other workers' writes are in flight.
    const killAfter = fc.sample(fc.integer({ min: 1, max: 25 }), { seed: SEED, numRuns: ROUNDS });
    const picks = fc.sample(fc.nat(), { seed: SEED + 1, numRuns: 10_000 });
    let pick = 0;
    const next = (n: number) => (picks[pick++ % picks.length] as number) % n;

    // Acknowledged: cards whose save was answered 201, and per card the reviews answered 200.
    const savedCards = new Set<string>();
    const ackedReviews = new Map<string, number>();
    const attemptedReviews = new Map<string, number>();

    let server = await start();
    const email = uniqueEmail('crash');
    expect(
      (await call(`${server.url}/signup`, { method: 'POST', json: { email, password: DEFAULT_PASSWORD } })).status,
    ).toBe(201);
    const login = await fetch(`${server.url}/login`, {
      method: 'POST',
      body: new URLSearchParams({ username: email, password: DEFAULT_PASSWORD }),
    });
    const token = ((await login.json()) as { access_token: string }).access_token;
    const headers = { authorization: `Bearer ${token}` };
    const deckResponse = await call(`${server.url}/decks`, { method: 'POST', headers, json: { deck_name: 'Crash' } });
    const deckId = ((await deckResponse.json()) as { _id: string })._id;

    for (let round = 0; round < ROUNDS; round++) {
      if (round > 0) server = await start();
      const base = server.url;
      let stop = false;
      let acknowledged = 0;
      let killMoment: () => void = () => {};
      const reached = new Promise<void>((resolve) => {
        killMoment = resolve;
      });
      const acknowledge = () => {
        acknowledged += 1;
        if (acknowledged === killAfter[round]) killMoment();
      };
      const worker = async () => {
        while (!stop) {
          try {
            if (savedCards.size < 5 || next(3) === 0) {
              const count = 1 + next(20);
              const cards = Array.from({ length: count }, (_, i) => ({ question: `r${round} q${i}`, answer: 'a' }));
              const response = await call(`${base}/save-cards`, {
                method: 'POST',
                headers,
                json: { deck_id: deckId, cards },
              });
              if (response.status === 201) {
                for (const card of ((await response.json()) as { cards: { _id: string }[] }).cards)
                  savedCards.add(card._id);
                acknowledge();
              }
            } else {
              const ids = [...savedCards];
              const cardId = ids[next(ids.length)] as string;
              attemptedReviews.set(cardId, (attemptedReviews.get(cardId) ?? 0) + 1);
              const response = await call(`${base}/cards/review`, {
                method: 'POST',
                headers,
                json: { card_id: cardId, result: next(2) === 0 ? 'pass' : 'fail' },
              });
              if (response.status === 200) {
                await response.json();
                ackedReviews.set(cardId, (ackedReviews.get(cardId) ?? 0) + 1);
                acknowledge();
              }
            }
          } catch {
            // The server died mid-request: that write was never acknowledged.
            return;
          }
        }
      };
      const workers = [worker(), worker(), worker(), worker()];
      await Promise.race([reached, Promise.all(workers)]);
      await kill(server);
      stop = true;
      await Promise.all(workers);
    }

    // The server is dead; read what is on disk (SQLite recovers its WAL on open) or in PostgreSQL.
    const db = database.db;
    const cards = await db
      .selectFrom('cards')
      .select(['id', 'deck_id', 'state', 'reps'])
      .where('deck_id', '=', deckId)
      .execute();
    const stored = new Map(cards.map((card) => [card.id, card]));
    for (const id of savedCards) expect(stored.has(id), `acknowledged card ${id}`).toBe(true);
    const logs = await db
      .selectFrom('review_logs')
      .select(['card_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('deck_id', '=', deckId)
      .groupBy('card_id')
      .execute();
    const logCount = new Map(logs.map((row) => [row.card_id, Number(row.n)]));
    for (const [id, acked] of ackedReviews) {
      const count = logCount.get(id) ?? 0;
      expect(count, `reviews of ${id}`).toBeGreaterThanOrEqual(acked);
      expect(count, `reviews of ${id}`).toBeLessThanOrEqual(attemptedReviews.get(id) ?? 0);
    }
    for (const card of cards) expect(card.reps, `reps of ${card.id}`).toBe(logCount.get(card.id) ?? 0);
    const deck = await db
      .selectFrom('decks')
      .select(['new_cards', 'learning_cards', 'review_cards'])
      .where('id', '=', deckId)
      .executeTakeFirstOrThrow();
    expect(deck).toEqual({
      new_cards: cards.filter((card) => card.state === 0).length,
      learning_cards: cards.filter((card) => card.state === 1 || card.state === 3).length,
      review_cards: cards.filter((card) => card.state === 2).length,
    });
    if (database.dialect === 'sqlite') {
      const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
      expect(check.rows).toEqual([{ integrity_check: 'ok' }]);
    }
    // The rounds did real work: writes were acknowledged and some were cut off.
    expect(savedCards.size).toBeGreaterThan(20);
    expect([...ackedReviews.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(20);
    process.stdout.write(
      `crash test (${database.dialect}): ${ROUNDS} kills, ${savedCards.size} cards and ${[...ackedReviews.values()].reduce((a, b) => a + b, 0)} reviews acknowledged, all present\n`,
    );
  });
});
