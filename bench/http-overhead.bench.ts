// `npm run bench -- http-overhead`: what our stack costs per request over a bare Fastify route on this machine.
// Both servers listen on loopback and are loaded by autocannon in turn, in one run:
// - GET /cards/due (bearer auth, user lookup, the queue query on SQLite, JSON) against a bare route that sends the
//   same JSON body it captured from ours;
// - GET /healthz (a database round trip) against a bare route answering { status: "ok" }.
// Prints requests per second, median and p99 latency, and the ratios.
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import { systemClock } from '../apps/server/src/adapters/clock';
import { createIdGenerator } from '../apps/server/src/adapters/ids';
import { memoryRateLimiters } from '../apps/server/src/adapters/rate-limit/rate-limiter';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { migrateToLatest, openDatabase } from '../apps/server/src/db/database';

const DURATION_S = 5;
const CONNECTIONS = 10;
const out = (line: string) => process.stdout.write(`${line}\n`);

interface Result {
  rps: number;
  p50: number;
  p99: number;
}

async function load(url: string, headers: Record<string, string>): Promise<Result> {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'flashcards-bench-http-'));
const database = openDatabase({ dataDir });
await migrateToLatest(database.db, database.dialect);
const ours = await buildApp({
  config: loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, AUTH_RATE_LIMIT_PER_IP: '1000' }),
  db: database.db,
  jwtSecret: 'bench-secret-that-is-long-enough-for-hs256-0123456789',
  clock: systemClock,
  newId: createIdGenerator(systemClock),
  google: null,
  rateLimiters: memoryRateLimiters(),
  logger: false,
});

// One learner with a deck of 50 new cards: the queue answers with all 50.
await ours.inject({
  method: 'POST',
  url: '/signup',
  payload: { email: 'bench@example.com', password: 'bench password', name: 'Bench' },
});
const login = await ours.inject({
  method: 'POST',
  url: '/login',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: 'username=bench%40example.com&password=bench+password',
});
const headers = { authorization: `Bearer ${login.json().access_token}` };
const deck = await ours.inject({ method: 'POST', url: '/decks', headers, payload: { deck_name: 'Bench' } });
const cards = Array.from({ length: 50 }, (_, i) => ({
  question: `What is item ${i}? A question of moderate length, like a real card.`,
  answer: `Item ${i} is the answer, with **markdown** and $x^${i}$ math.`,
}));
await ours.inject({ method: 'POST', url: '/save-cards', headers, payload: { deck_id: deck.json()._id, cards } });
const dueBody = (await ours.inject({ method: 'GET', url: '/cards/due', headers })).body;

const bare = Fastify({ logger: false });
bare.get('/cards/due', async (_request, reply) => reply.type('application/json; charset=utf-8').send(dueBody));
bare.get('/healthz', async () => ({ status: 'ok' }));

const oursUrl = await listen(ours);
const bareUrl = await listen(bare);

out(`${CONNECTIONS} connections, ${DURATION_S} s each, one after another; queue body ${dueBody.length} bytes`);
for (const [name, route] of [
  ['GET /cards/due (auth + SQLite queue + JSON)', '/cards/due'],
  ['GET /healthz (database round trip)', '/healthz'],
] as const) {
  const bareResult = await load(`${bareUrl}${route}`, headers);
  const ourResult = await load(`${oursUrl}${route}`, headers);
  out(`\n${name}`);
  out(`  bare Fastify: ${bareResult.rps.toFixed(0)} req/s, p50 ${bareResult.p50} ms, p99 ${bareResult.p99} ms`);
  out(`  ours:         ${ourResult.rps.toFixed(0)} req/s, p50 ${ourResult.p50} ms, p99 ${ourResult.p99} ms`);
  out(`  ours / bare throughput: ${(ourResult.rps / bareResult.rps).toFixed(2)}`);
}

await ours.close();
await bare.close();
await database.close();
rmSync(dataDir, { recursive: true, force: true });
