// The real server for the benchmarks that load it from outside (hostile-imports, hostile-uploads,
// hostile-uploads-paths): built to JavaScript and started as `npm start` runs it, with the event-loop monitor
// preloaded, and what they read about it meanwhile: its event-loop delays, its and its workers' peak memory, and the
// /healthz answer times seen from a probe process of their own (so the load this process sends never delays it).
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuiltServer, launchBuiltServer } from '../../apps/server/test/support/built-server';
import { multipartBody } from '../../apps/server/test/support/multipart';
import { commandOf, descendantsOf, parentOf, rssOf } from '../../apps/server/test/support/processes';
import { buildServer, serverBuildIsStale } from '../../scripts/build-server.mjs';
import { overHttp, signUpAndLogIn } from './accounts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const MB = 1_048_576;
export const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;

export interface BenchServer {
  child: BuiltServer['child'];
  base: string;
  dataDir: string;
  /** Where the preloaded monitor writes "epoch-ms largest-delay-ms", one line per 100 ms. */
  eventLoopFile: string;
}

/**
 * Builds the server if its sources changed, and starts it on a fresh data folder (BENCH_DATABASE_URL for
 * PostgreSQL); `env` adds settings. BENCH_SERVER_NODE_OPTIONS adds Node options (--cpu-prof, --trace-gc to see a
 * stall), BENCH_SERVER_OUT keeps the server's output in that file.
 */
export async function startBenchServer(env: Record<string, string> = {}): Promise<BenchServer> {
  if (serverBuildIsStale()) await buildServer();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-server-'));
  const eventLoopFile = path.join(dataDir, 'event-loop.txt');
  const extra = process.env.BENCH_SERVER_NODE_OPTIONS?.split(' ').filter(Boolean) ?? [];
  const server = launchBuiltServer(
    { options: { dataDir, databaseUrl: process.env.BENCH_DATABASE_URL } },
    { AUTH_RATE_LIMIT_PER_IP: '100000', BENCH_EVENT_LOOP_FILE: eventLoopFile, ...env },
    ['--import', path.join(here, 'event-loop-monitor.mjs'), ...extra],
  );
  const base = await server.listening.catch((error: unknown) => {
    server.child.kill('SIGKILL');
    throw error;
  });
  if (process.env.BENCH_SERVER_OUT) server.child.stdout?.pipe(createWriteStream(process.env.BENCH_SERVER_OUT));
  return { child: server.child, base, dataDir, eventLoopFile };
}

/** SIGTERM, then the time to exit; past 20 s the server gets SIGKILL. Its workers get SIGKILL, its data goes. */
export async function stopBenchServer(server: BenchServer): Promise<string> {
  const family = descendantsOf(server.child.pid ?? 0);
  const started = performance.now();
  const exited = new Promise<boolean>((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return resolve(true);
    server.child.once('exit', () => resolve(true));
  });
  server.child.kill('SIGTERM');
  const inTime = await Promise.race([
    exited,
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 20_000)),
  ]);
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  for (const pid of family) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  if (!inTime) {
    server.child.kill('SIGKILL');
    await exited;
  }
  rmSync(server.dataDir, { recursive: true, force: true });
  return inTime ? `${seconds} s` : 'over 20 s: SIGKILL';
}

/** The event-loop delays (ms) the server reported between `from` and `to` (epoch ms), with their moments. */
export function eventLoopDelays(server: BenchServer, from: number, to: number): { at: number; ms: number }[] {
  const text = existsSync(server.eventLoopFile) ? readFileSync(server.eventLoopFile, 'utf8').trim() : '';
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(' ').map(Number) as [number, number])
    .filter(([at]) => at >= from && at <= to + 100)
    .map(([at, ms]) => ({ at, ms }));
}

export const largestEventLoopDelay = (server: BenchServer, from: number, to: number) =>
  Math.max(0, ...eventLoopDelays(server, from, to).map(({ ms }) => ms));

export interface ProcessPeak {
  pid: number;
  parent: number;
  /** The command line of its parent (a broker's label names the processes it starts). */
  parentCommand: string;
  command: string;
  peak: number;
}

export interface MemoryPeaks {
  server: number;
  processes: ProcessPeak[];
}

/** Samples the peak RSS of the server and of each process below it every 10 ms (at most `maxMs`) until stopped. */
export function sampleMemory(server: BenchServer, maxMs = 600_000) {
  const serverPid = server.child.pid ?? 0;
  let serverPeak = 0;
  const peaks = new Map<number, ProcessPeak>();
  const started = Date.now();
  const timer = setInterval(() => {
    if (Date.now() - started > maxMs) return clearInterval(timer);
    serverPeak = Math.max(serverPeak, rssOf(serverPid));
    for (const pid of descendantsOf(serverPid)) {
      const parent = parentOf(pid) ?? 0;
      const known = peaks.get(pid) ?? {
        pid,
        parent,
        parentCommand: commandOf(parent),
        command: commandOf(pid),
        peak: 0,
      };
      known.peak = Math.max(known.peak, rssOf(pid));
      peaks.set(pid, known);
    }
  }, 10);
  return (): MemoryPeaks => {
    clearInterval(timer);
    return { server: serverPeak, processes: [...peaks.values()] };
  };
}

/** Runs a probe script of bench/support in a process of its own until stopped; answers what it printed (JSON). */
function runProbe<T>(script: string, args: string[], empty: T) {
  const probe = spawn(process.execPath, [path.join(here, script), ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  probe.stdout?.on('data', (chunk) => {
    out += chunk;
  });
  const exited = new Promise((resolve) => probe.once('exit', resolve));
  return async (): Promise<T> => {
    probe.stdin?.end();
    await exited;
    return out ? (JSON.parse(out) as T) : empty;
  };
}

/** Polls /healthz every 10 ms until stopped; answers the answer times in ms, sorted. */
export function probeHealth(server: BenchServer) {
  const stop = runProbe<number[]>('health-probe.mjs', [server.base], []);
  return async () => (await stop()).sort((a, b) => a - b);
}

/** GETs /healthz in a tight loop until stopped; answers the slowest answer in ms. */
export function probeStalls(server: BenchServer) {
  const stop = runProbe('stall-probe.mjs', [server.base, '600000', '200000'], { slowest: 0 });
  return async () => (await stop()).slowest;
}

/**
 * Runs `work` while the server's memory is sampled and /healthz probed from another process: its result, the
 * window it ran in (epoch ms, for eventLoopDelays), the /healthz answer times (sorted) and the memory peaks.
 */
export async function whileWatched<T>(server: BenchServer, work: () => Promise<T>) {
  const stopMemory = sampleMemory(server);
  const stopProbe = probeHealth(server);
  const from = Date.now();
  const result = await work();
  const to = Date.now();
  const times = await stopProbe();
  return { result, from, to, times, memory: stopMemory() };
}

let users = 0;
/** The authorization header of a new account. */
export async function newUser(server: BenchServer): Promise<Record<string, string>> {
  const email = `bench.${process.pid}.${++users}@example.com`;
  return { authorization: `Bearer ${await signUpAndLogIn(overHttp(server.base), email, 'a long enough password')}` };
}

/** The request that uploads one file as the web app does (a multipart form, field `file`). */
export function fileUpload(headers: Record<string, string>, bytes: Buffer, filename: string): RequestInit {
  const body = multipartBody([{ name: 'file', value: bytes, filename }]);
  return { method: 'POST', headers: { ...headers, ...body.headers }, body: new Uint8Array(body.payload) };
}

/** Uploads one file to `route`; answers the status, the JSON body and the time to the answer. */
export async function postFile(
  server: BenchServer,
  route: string,
  headers: Record<string, string>,
  bytes: Buffer,
  filename: string,
) {
  const started = performance.now();
  const response = await fetch(`${server.base}${route}`, fileUpload(headers, bytes, filename));
  const json = (await response.json()) as { code?: string; cards?: unknown[]; cards_imported?: number };
  return { status: response.status, json, ms: performance.now() - started };
}
