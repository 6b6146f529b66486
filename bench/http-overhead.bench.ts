// `npm run bench -- http`: what our stack costs per request, measured from outside. Every server is its own
// process, and the load comes from yet another: the autocannon CLI in a child process. In one run, at 50
// connections, for GET /cards/due (50 cards; and the same deck as a class's linked copy), POST /cards/review and
// GET /decks/stats, against:
// - bare bytes: a bare Fastify route sending the bytes ours sent (the HTTP floor);
// - bare SQL:   a bare Fastify route running the same SQL ours ran for that request (captured from Kysely), through
//               better-sqlite3 statements prepared once on a connection set up as ours is, answering JSON of the rows
//               (the floor for any stack on this database); values that move from one request to the next (times,
//               the review count the card update checks) move on each replay, so its writes write what ours do;
//               each request's writes are one transaction, as they were in ours until the reviews of one event-loop
//               turn were committed together (db/group-commit.ts): on the review, ours can now pass this floor;
// - ours:       the built server exactly as `npm start` runs it (apps/server/dist/server.js, same Node options).
// Then ours runs a mixed-traffic soak (the three routes at once plus uploads to /create) for BENCH_SOAK_S seconds
// (default 60; an hour is BENCH_SOAK_S=3600), and the same loads are measured again: before and after, with RSS
// (sampled six times during the soak too).
// Each route is measured in BENCH_ROUNDS rounds (default 3) of one load per server in turn, BENCH_DURATION_S seconds
// each (default 5): on a shared machine the speed of both cores drifts from one minute to the next, and a ratio taken
// from two loads run a minute apart measures the drift as well. Each figure printed is the median over the rounds;
// the ratio is the median of the rounds' ratios, with the lowest and highest. BENCH_SOAK_S=0 measures once, no soak;
// BENCH_ROUTES=due,stats measures only the routes whose names contain one of those words (any case);
// BENCH_DEFAULT_V8=1 runs ours without npm start's V8 options, for comparison. CI never runs this.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { migrateToLatest, openDatabase, sqlitePath, sqlitePragmas } from '../apps/server/src/db/database';
import type { Database } from '../apps/server/src/db/schema';
import { buildServer, serverBuildIsStale, serverEntry, serverNodeOptions } from '../scripts/build-server.mjs';
import { inProcess, signUpAndLogIn } from './support/accounts';
import { runLoad } from './support/autocannon';
import { BENCH_SECRET, buildBenchApp } from './support/study-account';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SOAK_S = Number(process.env.BENCH_SOAK_S ?? 60);
const CONNECTIONS = 50;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = (line: string) => process.stdout.write(`${line}\n`);

interface Result {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

interface RouteLoad {
  name: string;
  headers: Record<string, string>;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** The bare servers' path when another route has this one's (they route by path alone). */
  barePath?: string;
}

/** The route's load from autocannon in another process. */
async function load(baseUrl: string, route: RouteLoad, seconds: number, connections = CONNECTIONS): Promise<Result> {
  const { rps, p50, p99, bad } = await runLoad(`${baseUrl}${route.path}`, {
    connections,
    seconds,
    method: route.method,
    headers: route.headers,
    ...(route.body ? { body: route.body } : {}),
  });
  return { rps, p50, p99, non2xx: bad };
}

function startProcess(
  args: string[],
  env: Record<string, string>,
  pattern: RegExp,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      stdout += chunk;
      const match = pattern.exec(stdout);
      if (!match?.[1]) return;
      // From here on the log lines are read and dropped, as a log collector would take them: kept, they would grow
      // this process's memory, and searched, its CPU time, on the cores the servers share.
      child.stdout?.off('data', onData);
      child.stdout?.resume();
      resolve({ child, url: match[1] });
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${stderr}`)));
  });
}

function rssMb(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const ps = spawn('ps', ['-o', 'rss=', '-p', String(child.pid)]);
    let text = '';
    ps.stdout.on('data', (chunk) => {
      text += chunk;
    });
    ps.on('exit', () => resolve(Math.round(Number(text.trim()) / 1024)));
  });
}

// --- Data: one learner, a deck of 50 new cards (the queue answers all 50), captured SQL per route.
if (serverBuildIsStale()) await buildServer();
const dataDir = mkdtempSync(path.join(tmpdir(), 'flashcards-bench-http-'));
const setupDb = openDatabase({ dataDir });
await migrateToLatest(setupDb.db, setupDb.dialect);
await setupDb.close();

const captured: { sql: string; params: unknown[] }[] = [];
const sqlite = new SqliteDatabase(sqlitePath(dataDir));
const capturing = new Kysely<Database>({
  dialect: new SqliteDialect({ database: sqlite }),
  log: (event) => {
    if (event.level === 'query') captured.push({ sql: event.query.sql, params: [...event.query.parameters] });
  },
});
const env = {
  LOG_LEVEL: 'silent',
  DATA_DIR: dataDir,
  JWT_SECRET: BENCH_SECRET,
  AUTH_RATE_LIMIT_PER_IP: '100000',
  FREE_GENERATIONS_PER_MONTH: '1000000',
  CREATE_RATE_LIMIT_PER_HOUR: '1000000',
  // The review load answers far more than any person (REVIEW_RATE_LIMIT_PER_DAY's default, 20,000).
  REVIEW_RATE_LIMIT_PER_DAY: '1000000000',
  MAX_CARDS_PER_USER: '10000000',
};
const setup = await buildBenchApp(capturing, env);
/** A new learner's authorization header, signed up and in through the app. */
const learnerHeaders = async (email: string) => ({
  authorization: `Bearer ${await signUpAndLogIn(inProcess(setup), email, 'bench password')}`,
});
const headers = await learnerHeaders('bench@example.com');
const deck = (await setup.inject({ method: 'POST', url: '/decks', headers, payload: { deck_name: 'Bench' } })).json();
const cards = Array.from({ length: 50 }, (_, i) => ({
  question: `What is item ${i}? A question of moderate length, like a real card.`,
  answer: `Item ${i} is the answer, with **markdown** and $x^${i}$ math.`,
}));
// Siblings: the cards are 50 reversed notes (100 cards), whose reverse cards are held back today as if their note had
// been answered, so the queue's new-card range passes over a held-back card for each card it answers.
const reversed = (card: { question: string; answer: string }) => ({
  type: 'reversed',
  fields: { front: card.question, back: card.answer },
});
await setup.inject({
  method: 'POST',
  url: '/save-cards',
  headers,
  payload: { deck_id: deck._id, cards: cards.map(reversed) },
});
await capturing
  .updateTable('cards')
  .set({ buried_until: Date.now() + 86_400_000 })
  .where('deck_id', '=', deck._id)
  .where('card_type', '=', 'reverse')
  .execute();
// A second learner holds the card that the review load answers again and again: the tens of thousands of review-log
// rows it writes in a day (far beyond any person) stay out of the first learner's queue and statistics.
const reviewerHeaders = await learnerHeaders('reviewer@example.com');
const reviewDeck = (
  await setup.inject({ method: 'POST', url: '/decks', headers: reviewerHeaders, payload: { deck_name: 'Reviewed' } })
).json();
// Two cards of the same state: ours reviews the first, the bare SQL route replays the second's statements, so neither
// load finds its card moved by the other's. Each is reviewed a few times first, into the review state where a pass
// keeps it: the statements of one review are then those of the next, with moving values. Each is the front of a
// reversed note, so every answer also holds its sibling back.
const [reviewed, twin] = (
  await setup.inject({
    method: 'POST',
    url: '/save-cards',
    headers: reviewerHeaders,
    payload: { deck_id: reviewDeck._id, cards: cards.slice(0, 2).map(reversed) },
  })
)
  .json()
  .cards.filter((card: { card_type: string }) => card.card_type === 'basic')
  .map((card: { _id: string }) => card._id) as [string, string];
for (const card of [reviewed, twin]) {
  for (let i = 0; i < 4; i++) {
    await setup.inject({
      method: 'POST',
      url: '/cards/review',
      headers: { ...reviewerHeaders, 'content-type': 'application/json' },
      payload: JSON.stringify({ card_id: card, result: 'pass' }),
    });
  }
}

// A student of a class the first learner teaches, studying the linked copy of the same deck (issue 38: within 10 %
// of the unlinked queue), its reverse cards held back as the teacher's are.
const studentHeaders = await learnerHeaders('student@example.com');
const klass = (
  await setup.inject({ method: 'POST', url: '/classes', headers, payload: { name: 'Bench class' } })
).json();
await setup.inject({ method: 'POST', url: `/classes/${klass._id}/decks`, headers, payload: { deck_id: deck._id } });
await setup.inject({
  method: 'POST',
  url: '/classes/join',
  headers: studentHeaders,
  payload: { join_code: klass.join_code },
});
const linkedCopy = (await setup.inject({ method: 'GET', url: '/decks', headers: studentHeaders }))
  .json()
  .find((d: { linked?: boolean }) => d.linked);
await capturing
  .updateTable('cards')
  .set({ buried_until: Date.now() + 86_400_000 })
  .where('deck_id', '=', linkedCopy._id)
  .where('card_type', '=', 'reverse')
  .execute();

// Reads first, then the review load, whose writes (a review-log row each) would otherwise weigh on the reads.
const allRoutes: RouteLoad[] = [
  { name: 'GET /cards/due (50 cards)', headers, method: 'GET', path: `/cards/due?deck_id=${deck._id}` },
  {
    name: "GET /cards/due (50 cards, a class's linked copy)",
    headers: studentHeaders,
    method: 'GET',
    path: `/cards/due?deck_id=${linkedCopy._id}`,
    barePath: '/cards/due-linked',
  },
  { name: 'GET /decks/stats', headers, method: 'GET', path: '/decks/stats' },
  {
    name: 'POST /cards/review',
    headers: reviewerHeaders,
    method: 'POST',
    path: '/cards/review',
    body: JSON.stringify({ card_id: reviewed, result: 'pass' }),
  },
];
/** The request whose SQL the bare route replays: the same, but for the review, on the twin card. */
const replayedBody = (route: RouteLoad) => route.body?.replace(reviewed, twin);
const routeFilter = process.env.BENCH_ROUTES?.toLowerCase().split(',');
const routes = allRoutes.filter(
  (route) => !routeFilter || routeFilter.some((word) => route.name.toLowerCase().includes(word)),
);
// Ids the request names (kept); any other id in an INSERT was generated for it (fresh on every replay).
const userIds = await Promise.all(
  [headers, reviewerHeaders, studentHeaders].map(
    async (h) => (await setup.inject({ method: 'GET', url: '/users/me', headers: h })).json()._id as string,
  ),
);
const knownIds = new Set<string>([...userIds, deck._id, reviewDeck._id, reviewed, twin, klass._id, linkedCopy._id]);
const spec = { dbFile: sqlitePath(dataDir), pragmas: sqlitePragmas, routes: [] as unknown[] };
const capture = async (route: RouteLoad) => {
  captured.length = 0;
  const body = replayedBody(route);
  const response = await setup.inject({
    method: route.method,
    url: route.path,
    headers: body ? { ...route.headers, 'content-type': 'application/json' } : route.headers,
    ...(body ? { payload: body } : {}),
  });
  if (response.statusCode !== 200) throw new Error(`${route.name}: ${response.statusCode} ${response.body}`);
  // A new array: the next capture empties `captured`, not this.
  const statements = captured.filter((query) => !/^\s*(begin|commit|rollback|savepoint|release)/i.test(query.sql));
  return { body: response.body, statements };
};
for (const route of routes) {
  // Two requests in a row: a number that moved between them (a time, the card's review count that the update's guard
  // checks) moves by as much on every replay, so the bare route's writes hit rows as ours do, not a stale guard.
  const first = await capture(route);
  const second = await capture(route);
  if (first.statements.map((s) => s.sql).join(';') !== second.statements.map((s) => s.sql).join(';')) {
    throw new Error(`${route.name}: two requests in a row ran different SQL`);
  }
  const statements = second.statements.map((query, i) => ({
    sql: query.sql,
    params: query.params,
    steps: query.params.map((value, index) => {
      const before = first.statements[i]?.params[index];
      return typeof value === 'number' && typeof before === 'number' ? value - before : 0;
    }),
    freshIds: /^\s*insert/i.test(query.sql)
      ? query.params.flatMap((value, index) =>
          typeof value === 'string' && /^[0-9a-f]{24}$/.test(value) && !knownIds.has(value) ? [index] : [],
        )
      : [],
  }));
  spec.routes.push({
    method: route.method,
    path: route.barePath ?? route.path.split('?')[0],
    body: second.body,
    statements,
  });
}
await setup.close();
await capturing.destroy();
const specFile = path.join(dataDir, 'bench-spec.json');
writeFileSync(specFile, JSON.stringify(spec));

// --- Servers, each its own process.
const bareBytes = await startProcess(['bench/support/bare-servers.mjs', 'bytes', specFile], {}, /listening (\S+)/);
const bareSql = await startProcess(['bench/support/bare-servers.mjs', 'sql', specFile], {}, /listening (\S+)/);
const ours = await startProcess(
  [...(process.env.BENCH_DEFAULT_V8 ? [] : serverNodeOptions), serverEntry],
  { ...env, LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: '0' },
  /Server listening at (http:\/\/127\.0\.0\.1:\d+)/,
);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};
/** The median of each figure over the rounds. */
const summary = (results: Result[]): Result => ({
  rps: median(results.map((result) => result.rps)),
  p50: median(results.map((result) => result.p50)),
  p99: median(results.map((result) => result.p99)),
  non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
});

const table = async (label: string) => {
  out(
    `\n${label}: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION_S} s per server and route, one load at a ` +
      `time; medians over the rounds; ours RSS ${await rssMb(ours.child)} MB`,
  );
  out('| route | bare bytes req/s (p99) | bare SQL req/s (p99) | ours req/s (p50 / p99) | ours / bare SQL (min–max) |');
  out('|---|---|---|---|---|');
  const results: Record<string, Result> = {};
  for (const route of routes) {
    const rounds = { bytes: [] as Result[], sql: [] as Result[], ours: [] as Result[] };
    for (let round = 0; round < ROUNDS; round++) {
      const bare = route.barePath ? { ...route, path: route.barePath } : route;
      rounds.bytes.push(await load(bareBytes.url, bare, DURATION_S));
      rounds.sql.push(await load(bareSql.url, bare, DURATION_S));
      rounds.ours.push(await load(ours.url, route, DURATION_S));
    }
    const [bytes, bare, our] = [summary(rounds.bytes), summary(rounds.sql), summary(rounds.ours)];
    for (const [name, result] of [
      ['bytes', bytes],
      ['sql', bare],
      ['ours', our],
    ] as const) {
      if (result.non2xx > 0) out(`  (${name} ${route.name}: ${result.non2xx} non-2xx or errors)`);
    }
    const ratios = rounds.ours.map((result, i) => (100 * result.rps) / (rounds.sql[i] as Result).rps);
    results[route.name] = our;
    out(
      `| ${route.name} | ${bytes.rps.toFixed(0)} (${bytes.p99} ms) | ${bare.rps.toFixed(0)} (${bare.p99} ms) | ` +
        `${our.rps.toFixed(0)} (${our.p50} / ${our.p99} ms) | ${median(ratios).toFixed(0)} % ` +
        `(${Math.min(...ratios).toFixed(0)}–${Math.max(...ratios).toFixed(0)} %) |`,
    );
  }
  return results;
};

const before = await table(SOAK_S > 0 ? 'Before the soak' : 'Measured once');
if (SOAK_S <= 0) {
  for (const server of [bareBytes, bareSql, ours]) server.child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 500));
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}

// --- Mixed traffic against ours only: the three routes at once, and uploads to /create, for SOAK_S seconds.
out(
  `\nSoak: ${SOAK_S} s of mixed traffic (the three routes at 10 connections each, plus text and file uploads to /create)`,
);
const soakEnd = Date.now() + SOAK_S * 1000;
let uploads = 0;
const uploader = (async () => {
  const text = 'Photosynthesis is the process by which plants turn light into chemical energy. '.repeat(60);
  while (Date.now() < soakEnd) {
    const form = new FormData();
    if (uploads % 2 === 0) form.append('text', text);
    else
      form.append(
        'file',
        new Blob([`${text}\nMitochondria are organelles that make ATP.`], { type: 'text/plain' }),
        'notes.txt',
      );
    const response = await fetch(`${ours.url}/create`, { method: 'POST', headers, body: form });
    await response.arrayBuffer();
    uploads++;
  }
})();
// Ours' RSS six times over the soak: a plateau and a leak end alike at the last sample, not along the way.
const soakStart = Date.now();
const rssSamples = setInterval(
  async () => {
    const minutes = ((Date.now() - soakStart) / 60_000).toFixed(1);
    out(`  after ${minutes} min: ${uploads} uploads; ours RSS ${await rssMb(ours.child)} MB`);
  },
  (SOAK_S * 1000) / 6,
);
await Promise.all([...routes.map((route) => load(ours.url, route, SOAK_S, 10)), uploader]);
clearInterval(rssSamples);
out(`  ${uploads} uploads parsed and generated; ours RSS ${await rssMb(ours.child)} MB`);

const after = await table('After the soak');
out('\nours before → after the soak:');
for (const route of routes) {
  const a = before[route.name] as Result;
  const b = after[route.name] as Result;
  out(
    `  ${route.name}: ${a.rps.toFixed(0)} → ${b.rps.toFixed(0)} req/s (${((100 * b.rps) / a.rps - 100).toFixed(0)} %), p99 ${a.p99} → ${b.p99} ms`,
  );
}

for (const server of [bareBytes, bareSql, ours]) server.child.kill('SIGTERM');
await new Promise((resolve) => setTimeout(resolve, 500));
rmSync(dataDir, { recursive: true, force: true });
