// `npm run bench -- hostile-imports`: the turn-3 audit's hostile and large imports against a real server process,
// started as `npm start` runs it (the server built to JavaScript), with the load sent from this separate process.
// For each package: the answer and its time, the server's largest event-loop delay meanwhile (measured inside it by
// bench/support/event-loop-monitor.mjs, preloaded), the slowest /healthz answer (polled every 10 ms by a process of
// its own), and the peak RSS of the server and of the import's reading processes. Then how long SIGTERM takes to end
// the server while an import is being read.
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import {
  basic,
  buildPackage,
  type TestNote,
  type TestPackage,
  zipFiles,
} from '../apps/server/test/support/anki-packages';
import { endlessCte, oneNote, zstdDeclaring, zstdZeros } from '../apps/server/test/support/hostile-packages';
import { multipartBody } from '../apps/server/test/support/multipart';
import { buildServer, serverBuildIsStale, serverEntry, serverNodeOptions } from '../scripts/build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-imports-'));
const eventLoopFile = path.join(dataDir, 'event-loop.txt');
const MB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;

function largestEventLoopDelay(from: number, to: number): number {
  const lines = existsSync(eventLoopFile) ? readFileSync(eventLoopFile, 'utf8').trim().split('\n') : [];
  return Math.max(
    0,
    ...lines
      .map((line) => line.split(' ').map(Number) as [number, number])
      .filter(([at]) => at >= from && at <= to + 100)
      .map(([, ms]) => ms),
  );
}

/** The 100 ms windows between `from` and `to` whose largest delay passed 100 ms: "+offset s: delay ms". */
function stalls(from: number, to: number): string {
  const lines = existsSync(eventLoopFile) ? readFileSync(eventLoopFile, 'utf8').trim().split('\n') : [];
  return lines
    .map((line) => line.split(' ').map(Number) as [number, number])
    .filter(([at, ms]) => at >= from && at <= to + 100 && ms > 100)
    .map(([at, ms]) => `+${((at - from) / 1000).toFixed(1)} s: ${ms.toFixed(0)} ms`)
    .join(', ');
}

function rssOf(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * 4096;
  } catch {
    return 0;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function descendantsOf(pid: number): number[] {
  return childrenOf(pid).flatMap((child) => [child, ...descendantsOf(child)]);
}

const commandOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
};

/** Peak RSS of the server and of the import broker's children (the reading processes), sampled every 10 ms. */
function sampleMemory(serverPid: number) {
  let server = 0;
  let reader = 0;
  const timer = setInterval(() => {
    server = Math.max(server, rssOf(serverPid));
    for (const broker of childrenOf(serverPid).filter((pid) => commandOf(pid).includes('import-broker'))) {
      for (const pid of descendantsOf(broker)) reader = Math.max(reader, rssOf(pid));
    }
  }, 10);
  return () => {
    clearInterval(timer);
    return { server, reader };
  };
}

function probeHealth(base: string) {
  const probe = spawn(process.execPath, [path.join(root, 'bench/support/health-probe.mjs'), base], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  probe.stdout?.on('data', (chunk) => {
    out += chunk;
  });
  const exited = new Promise((resolve) => probe.once('exit', resolve));
  return async () => {
    probe.stdin?.end();
    await exited;
    return (JSON.parse(out) as number[]).sort((a, b) => a - b);
  };
}

async function startServer(): Promise<{ child: ChildProcess; base: string }> {
  if (serverBuildIsStale()) await buildServer();
  const monitor = ['--import', path.join(root, 'bench/support/event-loop-monitor.mjs')];
  // BENCH_SERVER_NODE_OPTIONS adds Node options to the server's own (e.g. --trace-gc to see a stall).
  const extra = process.env.BENCH_SERVER_NODE_OPTIONS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...serverNodeOptions, ...monitor, ...extra, serverEntry], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
      BENCH_EVENT_LOOP_FILE: eventLoopFile,
      AUTH_RATE_LIMIT_PER_IP: '1000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  // BENCH_SERVER_OUT keeps the server's output (its log, and what BENCH_SERVER_NODE_OPTIONS traces) in that file.
  if (process.env.BENCH_SERVER_OUT) child.stdout?.pipe(createWriteStream(process.env.BENCH_SERVER_OUT));
  else child.stdout?.resume();
  return { child, base };
}

let users = 0;
async function newUser(base: string): Promise<Record<string, string>> {
  const email = `bench.imports.${process.pid}.${++users}@example.com`;
  const password = 'a long enough password';
  await fetch(`${base}/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, name: 'Bench' }),
  });
  const login = await fetch(`${base}/login`, {
    method: 'POST',
    body: new URLSearchParams({ username: email, password }),
  });
  return { authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}` };
}

async function importFile(base: string, headers: Record<string, string>, bytes: Buffer, filename: string) {
  const body = multipartBody([{ name: 'file', value: bytes, filename }]);
  const started = performance.now();
  const response = await fetch(`${base}/import`, {
    method: 'POST',
    headers: { ...headers, ...body.headers },
    body: new Uint8Array(body.payload),
  });
  const json = (await response.json()) as { code?: string; cards_imported?: number };
  return {
    status: response.status,
    answer: json.code ?? `${json.cards_imported} cards`,
    ms: performance.now() - started,
  };
}

/** `count` Basic notes of short text in one deck (the audit's t-many-notes.mjs). */
function manyNotes(count: number): TestPackage {
  const notes: TestNote[] = [];
  for (let i = 0; i < count; i++) {
    notes.push({
      id: i + 1,
      guid: `n${i}`,
      notetypeId: basic.id,
      fields: [`front ${i}`, `back ${i}`],
      cards: [{ ord: 0, deckId: 1 }],
    });
  }
  return { notetypes: [basic], decks: { 1: 'Many' }, notes };
}

const cases: { name: string; make: () => Promise<Buffer> }[] = [
  {
    name: 'view over an endless recursive CTE',
    make: () =>
      buildPackage(
        oneNote(['q', 'a'], {
          sql: `drop table fields; create view fields as ${endlessCte} select 1 as ntid, 0 as ord, 'x' as name, x'' as config from r where i < 0`,
        }),
        'anki21b',
      ),
  },
  {
    name: 'view of 8 × zeroblob(256 MB)',
    make: () =>
      buildPackage(
        oneNote(['q', 'a'], {
          sql: `drop table decks; create view decks as with recursive r(i) as (select 1 union all select i + 1 from r where i < 8)
            select i as id, zeroblob(256 * 1048576) as name, 0 as mtime_secs, 0 as usn, x'' as common, x'' as kind from r`,
        }),
        'anki21b',
      ),
  },
  {
    name: 'zstd frame declaring 2 GB',
    make: () => zipFiles([['collection.anki21b', zstdDeclaring(Buffer.from('0123456789'), 2_000_000_000)]]),
  },
  {
    name: 'zip 500 MB + zstd 500 MB (each under the cap)',
    make: () =>
      zipFiles([
        ['filler', Buffer.alloc(500 * MB)],
        ['collection.anki21b', zstdZeros(500 * MB)],
      ]),
  },
  { name: 'zstd RLE bomb of 600 MB', make: () => zipFiles([['collection.anki21b', zstdZeros(600 * MB)]]) },
  { name: '1,000,000 notes (over MAX_CARDS_PER_USER)', make: () => buildPackage(manyNotes(1_000_000)) },
  { name: '199,000 notes (under the cap)', make: () => buildPackage(manyNotes(199_000)) },
];

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

const { child, base } = await startServer();
try {
  const pid = child.pid ?? 0;
  console.log(
    `server idle RSS ${mb(rssOf(pid))}; load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores\n`,
  );
  console.log(
    'package                                        size      answer              time   event loop  /healthz max  server RSS  reader RSS',
  );
  // BENCH_ONLY=199 runs only the cases whose name contains it.
  for (const { name, make } of cases.filter((c) => c.name.includes(process.env.BENCH_ONLY ?? ''))) {
    const bytes = await make();
    const headers = await newUser(base);
    const stopMemory = sampleMemory(pid);
    const stopProbe = probeHealth(base);
    const from = Date.now();
    const reply = await importFile(base, headers, bytes, 'bench.apkg');
    const to = Date.now();
    const times = await stopProbe();
    const memory = stopMemory();
    console.log(
      `${name.padEnd(46)}${`${(bytes.length / 1024).toFixed(0)} KB`.padStart(9)}  ${`${reply.status} ${reply.answer}`.padEnd(18)}` +
        `${`${(reply.ms / 1000).toFixed(1)} s`.padStart(8)}${`${largestEventLoopDelay(from, to).toFixed(0)} ms`.padStart(13)}` +
        `${`${(times.at(-1) ?? 0).toFixed(0)} ms`.padStart(14)}${mb(memory.server).padStart(12)}${mb(memory.reader).padStart(12)}` +
        `   (/healthz median ${percentile(times, 0.5).toFixed(0)} ms of ${times.length})`,
    );
    const over = stalls(from, to);
    if (over) console.log(`  event-loop delays over 100 ms: ${over}`);
  }

  // SIGTERM while an import is being read (the 600 MB RLE bomb keeps a reading process busy for many seconds).
  const headers = await newUser(base);
  const bomb = await zipFiles([['collection.anki21b', zstdZeros(500 * MB)]]);
  const pending = importFile(base, headers, bomb, 'spin.apkg').catch(() => null);
  const started = Date.now();
  while (!childrenOf(pid).some((c) => commandOf(c).includes('import-broker') && childrenOf(c).length > 0)) {
    if (Date.now() - started > 30_000) throw new Error('no reading process appeared');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const killedAt = performance.now();
  child.kill('SIGTERM');
  await exited;
  console.log(
    `\nSIGTERM during an import: the server exited after ${(performance.now() - killedAt).toFixed(0)} ms (goal ≤ 10 s)`,
  );
  await pending;
} finally {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
  rmSync(dataDir, { recursive: true, force: true });
}
