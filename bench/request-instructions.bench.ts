// `npm run bench -- request-instructions`: the instructions the built server spends on one request, counted by
// valgrind (callgrind), for GET /cards/due (50 cards), GET /decks/stats, POST /cards/review and POST /cards/{id}/check
// (a 52-character typed answer with a typo). Unlike req/s, an instruction count does not move with the machine's
// speed (two cores shared with the load generator, drifting by ±10 % within minutes here), so it tells a change of a
// few per cent that req/s cannot. It counts user-space work
// only: the kernel's (socket writes, waking the client) is not in it, and bench/http-overhead measures that.
// Each route runs the server twice under valgrind, answering BENCH_FEW (default 4000) and BENCH_MANY (default 16000)
// requests from autocannon in a separate process (10 connections); the difference over the difference in requests is
// the cost of one request, start-up cancelled out. Warm-up must be over by BENCH_FEW: with 2000 and 8000, the
// optimizing compiler's and the collector's late work still fell in the difference (GET /decks/stats read 303,000 to
// 337,000 there, the same build differing by up to 30,000 between runs, against 238,000 and 252,000 for two builds
// at the defaults). A route takes three to four minutes (valgrind runs the server about 50 times slower); its two
// runs go in parallel. Repeat a run before trusting a difference under 5 %.
// BENCH_ENTRY=path/to/server.js counts another build (a copy of apps/server/dist kept inside the repository, so that
// it finds node_modules) for an A/B; BENCH_ROUTES=stats,due,check as in bench/http-overhead. Needs valgrind (Debian's
// package); CI never runs this.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrateToLatest, openDatabase } from '../apps/server/src/db/database';
import { buildServer, serverBuildIsStale, serverEntry, serverNodeOptions } from '../scripts/build-server.mjs';
import { inProcess, signUpAndLogIn } from './support/accounts';
import { BENCH_SECRET, buildBenchApp } from './support/study-account';

const FEW = Number(process.env.BENCH_FEW ?? 4000);
const MANY = Number(process.env.BENCH_MANY ?? 16000);
// On a machine shared with other work, valgrind's start-up alone can take longer than the default (and an answer
// longer than autocannon's 10 s).
const START_TIMEOUT_S = Number(process.env.BENCH_START_TIMEOUT_S ?? 300);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const autocannonCli = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
const out = (line: string) => process.stdout.write(`${line}\n`);

if (spawnSync('valgrind', ['--version']).status !== 0) {
  out('valgrind is not installed (apt-get install valgrind): nothing measured.');
  process.exit(0);
}
const entry = process.env.BENCH_ENTRY ? path.resolve(process.env.BENCH_ENTRY) : serverEntry;
if (!process.env.BENCH_ENTRY && serverBuildIsStale()) await buildServer();

// --- Data as bench/http-overhead's: a learner with a deck of 50 new cards; another with a card in the review state.
const dataDir = mkdtempSync(path.join(tmpdir(), 'flashcards-bench-instructions-'));
const env = {
  LOG_LEVEL: 'info',
  DATA_DIR: dataDir,
  JWT_SECRET: BENCH_SECRET,
  AUTH_RATE_LIMIT_PER_IP: '100000',
  MAX_CARDS_PER_USER: '10000000',
  REVIEW_RATE_LIMIT_PER_DAY: '1000000000',
};
const setupDb = openDatabase({ dataDir });
await migrateToLatest(setupDb.db, setupDb.dialect);
const setup = await buildBenchApp(setupDb.db, { ...env, LOG_LEVEL: 'silent' });
/** Signs a new learner up and in: the Authorization header's value. */
const learner = async (email: string) => `Bearer ${await signUpAndLogIn(inProcess(setup), email, 'bench password')}`;
/** A deck of the learner's with these cards: the deck's id and the cards' ids. */
async function deckOf(authorization: string, cards: { question: string; answer: string }[]) {
  const headers = { authorization };
  const deck = (await setup.inject({ method: 'POST', url: '/decks', headers, payload: { deck_name: 'Bench' } })).json();
  const saved = await setup.inject({
    method: 'POST',
    url: '/save-cards',
    headers,
    payload: { deck_id: deck._id, cards },
  });
  return { deckId: deck._id as string, cardIds: (saved.json().cards as { _id: string }[]).map((card) => card._id) };
}
const cards = Array.from({ length: 50 }, (_, i) => ({
  question: `What is item ${i}? A question of moderate length, like a real card.`,
  answer: `Item ${i} is the answer, with **markdown** and $x^${i}$ math.`,
}));
const studying = await learner('bench@example.com');
const { deckId } = await deckOf(studying, cards);
// A second learner reviews, as in bench/http-overhead: the review rows stay out of the first one's queue and stats.
const reviewing = await learner('reviewer@example.com');
const reviewed = (await deckOf(reviewing, cards.slice(0, 1))).cardIds[0] as string;
const reviewBody = JSON.stringify({ card_id: reviewed, result: 'pass' });
// A third learner types answers (bench/study-modes' first card, with its typo): the others' data stay as they were.
const checking = await learner('checker@example.com');
const [checked] = (
  await deckOf(checking, [{ question: 'Osmosis?', answer: 'The movement of water across a semipermeable membrane' }])
).cardIds;
const checkBody = JSON.stringify({ typed: 'the movment of water across a semipermeable membrane' });
for (let i = 0; i < 4; i++) {
  await setup.inject({
    method: 'POST',
    url: '/cards/review',
    headers: { authorization: reviewing, 'content-type': 'application/json' },
    payload: reviewBody,
  });
}
await setup.close();
await setupDb.close();

interface Route {
  name: string;
  authorization: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}
const allRoutes: Route[] = [
  { name: 'GET /cards/due (50 cards)', authorization: studying, method: 'GET', path: `/cards/due?deck_id=${deckId}` },
  { name: 'GET /decks/stats', authorization: studying, method: 'GET', path: '/decks/stats' },
  { name: 'POST /cards/review', authorization: reviewing, method: 'POST', path: '/cards/review', body: reviewBody },
  {
    name: 'POST /cards/{id}/check',
    authorization: checking,
    method: 'POST',
    path: `/cards/${checked}/check`,
    body: checkBody,
  },
];
const routeFilter = process.env.BENCH_ROUTES?.toLowerCase().split(',');
const routes = allRoutes.filter(
  (route) => !routeFilter || routeFilter.some((word) => route.name.toLowerCase().includes(word)),
);

/** Resolves once the process has exited and its output has been read to the end ('close', not 'exit'). */
function waitForClose(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null && child.stderr?.readableEnded) resolve();
    else child.once('close', () => resolve());
  });
}

/** Instructions the server ran from its start to its exit, having answered `count` requests of `route`. */
async function countInstructions(route: Route, count: number): Promise<number> {
  // A copy of the data per run: the two runs of a route go at once, and two servers reviewing one card would race.
  const runDir = mkdtempSync(path.join(tmpdir(), 'flashcards-bench-instructions-run-'));
  cpSync(dataDir, runDir, { recursive: true });
  const server = spawn(
    'valgrind',
    ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, ...serverNodeOptions, entry],
    {
      cwd: root,
      env: { ...process.env, ...env, DATA_DIR: runDir, HOST: '127.0.0.1', PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  server.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no start within ${START_TIMEOUT_S} s: ${stderr.slice(-500)}`)),
        START_TIMEOUT_S * 1000,
      );
      const onData = (chunk: Buffer) => {
        stdout += chunk;
        const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
        if (!match?.[1]) return;
        clearTimeout(timer);
        server.stdout?.off('data', onData);
        server.stdout?.resume();
        resolve(match[1]);
      };
      server.stdout?.on('data', onData);
    });
    const args = [autocannonCli, '-j', '-c', '10', '-a', String(count), '-m', route.method];
    // autocannon's default 10 s answer timeout fails requests to a server that valgrind slows on a loaded machine.
    args.push('-t', String(START_TIMEOUT_S));
    args.push('-H', `authorization=${route.authorization}`);
    if (route.body) args.push('-H', 'content-type=application/json', '-b', route.body);
    const load = spawnSync(process.execPath, [...args, `${url}${route.path}`], { encoding: 'utf8' });
    if (load.status !== 0) throw new Error(`autocannon: ${load.stderr}`);
    const report = JSON.parse(load.stdout) as { '2xx': number; non2xx: number; errors: number };
    if (report['2xx'] !== count || report.non2xx + report.errors > 0) {
      throw new Error(`${route.name}: ${report['2xx']} of ${count} requests answered 2xx`);
    }
  } finally {
    // Also when the load failed: no server left running under valgrind.
    server.kill('SIGTERM');
    await waitForClose(server);
    rmSync(runDir, { recursive: true, force: true });
  }
  const collected = /Collected : (\d+)/.exec(stderr)?.[1];
  if (!collected) throw new Error(`no instruction count from valgrind: ${stderr.slice(-500)}`);
  return Number(collected);
}

out(`Instructions per request (callgrind), ${path.relative(root, entry)}: runs of ${FEW} and ${MANY} requests`);
out('| route | instructions per request | whole run, few / many |');
out('|---|---|---|');
for (const route of routes) {
  const [few, many] = await Promise.all([countInstructions(route, FEW), countInstructions(route, MANY)]);
  const perRequest = (many - few) / (MANY - FEW);
  out(
    `| ${route.name} | ${Math.round(perRequest).toLocaleString('en-US')} | ` +
      `${(few / 1e9).toFixed(2)} / ${(many / 1e9).toFixed(2)} G |`,
  );
}
rmSync(dataDir, { recursive: true, force: true });
