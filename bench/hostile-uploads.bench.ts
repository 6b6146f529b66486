// Hostile and large honest uploads against a real server process, started as `npm start` runs it (the server built
// to JavaScript, minus the web build), with the load sent from this separate process. Prints, for each hostile file,
// the time to the answer and the server process's peak RSS while it was handled; then, during four concurrent large
// honest uploads (two 9 MB DOCX, two 300-page PDFs), the /healthz answer times (polled every 10 ms by a process of
// its own: an upper bound of the server's event-loop delay) and the peak RSS of the server and of each parser worker.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostileUploads, repeatedSlidePptx } from '../apps/server/test/support/hostile-files';
import { multipartBody } from '../apps/server/test/support/multipart';
import { buildServer, serverBuildIsStale, serverEntry, serverNodeOptions } from '../scripts/build-server.mjs';
import { docxOf, textPdf } from './support/large-documents';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-hostile-'));

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MB`;

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

/** Every process below `pid` (the parser broker, the parser processes it starts, the generator workers). */
function descendantsOf(pid: number): number[] {
  return childrenOf(pid).flatMap((child) => [child, ...descendantsOf(child)]);
}

function isBroker(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('parser-broker');
  } catch {
    return false;
  }
}

/** The server's worker processes by kind: the broker, the parser processes it starts, the generator workers. */
type WorkerKind = 'broker' | 'parser' | 'generator';
function workersOf(serverPid: number): { pid: number; kind: WorkerKind }[] {
  return childrenOf(serverPid).flatMap((pid): { pid: number; kind: WorkerKind }[] =>
    isBroker(pid)
      ? [
          { pid, kind: 'broker' as const },
          ...descendantsOf(pid).map((child) => ({ pid: child, kind: 'parser' as const })),
        ]
      : [{ pid, kind: 'generator' as const }],
  );
}

/** Samples the server's RSS and its descendants' every 10 ms until stopped. */
function sampleMemory(serverPid: number) {
  let serverPeak = 0;
  const workerPeaks = new Map<number, { kind: string; peak: number }>();
  const timer = setInterval(() => {
    serverPeak = Math.max(serverPeak, rssOf(serverPid));
    for (const { pid, kind } of workersOf(serverPid)) {
      const known = workerPeaks.get(pid) ?? { kind, peak: 0 };
      known.peak = Math.max(known.peak, rssOf(pid));
      workerPeaks.set(pid, known);
    }
  }, 10);
  return () => {
    clearInterval(timer);
    const peaksOf = (kind: string) =>
      [...workerPeaks.values()].filter((worker) => worker.kind === kind).map((worker) => worker.peak);
    return {
      serverPeak,
      /** Parser processes (parse-worker), each under EXTRACT_MEMORY_MB. */
      workerPeaks: peaksOf('parser'),
      brokerPeaks: peaksOf('broker'),
      generatorPeaks: peaksOf('generator'),
    };
  };
}

/** Polls /healthz every 10 ms from a separate process until stopped; returns the answer times in ms, sorted. */
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

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

async function startServer(): Promise<{ child: ChildProcess; base: string }> {
  // As `npm start` runs it: the server built to JavaScript, with its Node options.
  if (serverBuildIsStale()) await buildServer();
  // BENCH_SERVER_NODE_OPTIONS adds Node options to the server's own (e.g. --cpu-prof, --trace-gc to see a stall).
  const extra = process.env.BENCH_SERVER_NODE_OPTIONS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...serverNodeOptions, ...extra, serverEntry], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', DATABASE_URL: '' },
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
  child.stdout?.resume();
  return { child, base };
}

let users = 0;
async function newUser(base: string): Promise<Record<string, string>> {
  const email = `bench.${process.pid}.${++users}@example.com`;
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

async function upload(base: string, headers: Record<string, string>, bytes: Buffer, filename: string) {
  const body = multipartBody([{ name: 'file', value: bytes, filename }]);
  const started = performance.now();
  const response = await fetch(`${base}/create`, {
    method: 'POST',
    headers: { ...headers, ...body.headers },
    body: new Uint8Array(body.payload),
  });
  const json = (await response.json()) as { code?: string; cards?: unknown[] };
  return {
    status: response.status,
    code: json.code ?? `${json.cards?.length ?? 0} cards`,
    ms: performance.now() - started,
  };
}

// The audit's files, and the slide listed 3,000 times (read once: 200 with its cards).
const hostile = [
  ...hostileUploads,
  { name: 'PPTX listing one slide 3,000 times', filename: 'a.pptx', make: () => repeatedSlidePptx(3000) },
];

const { child, base } = await startServer();
try {
  const idle = rssOf(child.pid ?? 0);
  console.log(`server idle RSS ${mb(idle)} (pid ${child.pid})\n`);
  console.log(
    'hostile file                          answer                  time      server peak RSS  worker peak RSS',
  );
  for (const { name, filename, make } of hostile) {
    const bytes = await make();
    const headers = await newUser(base);
    const stop = sampleMemory(child.pid ?? 0);
    const reply = await upload(base, headers, bytes, filename);
    const memory = stop();
    console.log(
      `${name.padEnd(38)}${`${reply.status} ${reply.code}`.padEnd(24)}${`${reply.ms.toFixed(0)} ms`.padStart(8)}` +
        `${mb(memory.serverPeak).padStart(17)}${mb(Math.max(0, ...memory.workerPeaks)).padStart(17)}`,
    );
  }

  const honest = [
    { label: '9 MB DOCX', filename: 'a.docx', bytes: await docxOf(9 * 1024 * 1024) },
    { label: '9 MB DOCX', filename: 'b.docx', bytes: await docxOf(9 * 1024 * 1024) },
    { label: '300-page PDF', filename: 'a.pdf', bytes: await textPdf(300) },
    { label: '300-page PDF', filename: 'b.pdf', bytes: await textPdf(300) },
  ];
  const headers = await Promise.all(honest.map(() => newUser(base)));
  const stopMemory = sampleMemory(child.pid ?? 0);
  const stopProbe = probeHealth(base);
  const replies = await Promise.all(honest.map((file, i) => upload(base, headers[i] ?? {}, file.bytes, file.filename)));
  const times = await stopProbe();
  const memory = stopMemory();
  console.log('\nfour concurrent large honest uploads:');
  honest.forEach((file, i) => {
    const reply = replies[i];
    console.log(
      `  ${file.label} (${(file.bytes.length / 1e6).toFixed(1)} MB): ${reply?.status} ${reply?.code} in ${((reply?.ms ?? 0) / 1000).toFixed(1)} s`,
    );
  });
  console.log(
    `  /healthz meanwhile (${times.length} polls): median ${percentile(times, 0.5).toFixed(1)} ms, p99 ` +
      `${percentile(times, 0.99).toFixed(0)} ms, slowest ${(times.at(-1) ?? 0).toFixed(0)} ms ` +
      `(goal: slowest ≤ 50 ms; 2,300 ms before isolation); load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores`,
  );
  console.log(`  server process peak RSS: ${mb(memory.serverPeak)} (goal ≤ 400 MB)`);
  console.log(
    `  parser workers' peak RSS, each: ${memory.workerPeaks.map(mb).join(', ') || 'none seen'} (cap ${process.env.EXTRACT_MEMORY_MB ?? 768} MB)`,
  );
  console.log(
    `  parser broker: ${memory.brokerPeaks.map(mb).join(', ') || 'none seen'}; offline generator workers: ` +
      `${memory.generatorPeaks.map(mb).join(', ') || 'none seen'}`,
  );
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
