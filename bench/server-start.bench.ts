// `npm run bench -- server-start`: start-up time and idle memory of the server as `npm start` runs it (the build in
// apps/server/dist, with its Node options), against the TypeScript sources through tsx (`npm run dev`'s way).
// Start-up: from spawning the process to the first 200 from /healthz (fresh data directory: migrations included).
// Idle RSS: the process's resident memory 5 s after that, with no traffic. RUNS starts per variant (default 5).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, serverBuildIsStale, serverEntry, serverNodeOptions } from '../scripts/build-server.mjs';

const RUNS = Number(process.env.RUNS ?? 5);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = (line: string) => process.stdout.write(`${line}\n`);

async function once(args: string[], port: number): Promise<{ startMs: number; rssMb: number }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'flashcards-bench-start-'));
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: path.join(root, 'apps/server'),
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  let startMs = Number.NaN;
  while (performance.now() - started < 60_000) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (response.status === 200) {
        startMs = performance.now() - started;
        break;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const rssMb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
  rmSync(dataDir, { recursive: true, force: true });
  return { startMs, rssMb };
}

if (serverBuildIsStale()) await buildServer();
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

out(
  `load average at start: ${loadavg()
    .map((value) => value.toFixed(1))
    .join(', ')} (two cores)`,
);
out('| variant | start-up median (min–max) | idle RSS median (min–max) |');
out('|---|---|---|');
for (const [name, args] of [
  ['built (npm start)', [...serverNodeOptions, serverEntry]],
  ['tsx (sources)', ['--import', 'tsx', 'src/server.ts']],
] as const) {
  const results = [];
  for (let run = 0; run < RUNS; run++) results.push(await once([...args], 3950 + run));
  const starts = results.map((result) => result.startMs);
  const rss = results.map((result) => result.rssMb);
  out(
    `| ${name} | ${median(starts).toFixed(0)} ms (${Math.min(...starts).toFixed(0)}–${Math.max(...starts).toFixed(0)}) | ` +
      `${median(rss).toFixed(0)} MB (${Math.min(...rss).toFixed(0)}–${Math.max(...rss).toFixed(0)}) |`,
  );
}
