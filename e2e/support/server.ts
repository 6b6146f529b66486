import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface RunningServer {
  url: string;
  /** The server's data directory (its SQLite file is flashcards.db there). */
  dataDir: string;
  stop(): Promise<void>;
}

/** A free loopback port: any, or with E2E_PORT_BAND=41420-41499 (a person's band on a shared machine) one in it. */
async function freePort(): Promise<number> {
  const band = process.env.E2E_PORT_BAND?.match(/^(\d+)-(\d+)$/);
  if (band) {
    for (let port = Number(band[1]); port <= Number(band[2]); port++) {
      if (await listens(port)) return port;
    }
    throw new Error(`no free port in E2E_PORT_BAND ${process.env.E2E_PORT_BAND}`);
  }
  return await listens(0);
}

/** Listens on `port` (0: any) for a moment; the port it got, or 0 when it was taken. */
async function listens(port: number): Promise<number> {
  return await new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', () => (port === 0 ? reject(new Error('no port')) : resolve(0)));
    probe.listen(port, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Starts the product the way `npm start` does (scripts/start.mjs: build the web app when stale, then run the
 * server), on a free loopback port with a fresh temporary data directory, and waits until /healthz answers.
 */
export async function startServer(
  env: Record<string, string> = {},
  { port: pinned }: { port?: number } = {},
): Promise<RunningServer> {
  const port = pinned ?? (await freePort());
  const dataDir = mkdtempSync(path.join(tmpdir(), 'flashcards-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  // As a person's shell runs `npm start`: without the test runner's NODE_ENV=test, which would make Vite build
  // React's development bundle into apps/web/dist.
  const { NODE_ENV: _testRunnerMode, ...parentEnv } = process.env;
  const child: ChildProcess = spawn(process.execPath, [path.join(repoRoot, 'scripts/start.mjs')], {
    cwd: repoRoot,
    env: {
      ...parentEnv,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      GOOGLE_CLIENT_ID: '',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const deadline = Date.now() + 180_000;
  for (;;) {
    const early = await Promise.race([exited, new Promise<'waiting'>((r) => setTimeout(() => r('waiting'), 250))]);
    if (early !== 'waiting') throw new Error(`the server exited with code ${early} before it was ready`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error('the server did not become ready within 180 s');
    }
  }

  return {
    url,
    dataDir,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ClockedServer extends RunningServer {
  /** Moves the server's clock `ms` further ahead of the real one. */
  advanceClock(ms: number): void;
  /** How far the server's clock runs ahead of the real one (ms). */
  offsetMs(): number;
}

/**
 * A server of its own (as startServer) whose clock a test can move forward, into the next study day: its processes
 * load support/clock-shift.mjs, which adds the offset written in a file to Date.now. A test moves the browser's clock
 * with it (Playwright's page.clock), so that the web app and the server agree on the time.
 */
export async function startServerWithMovableClock(options: { port?: number } = {}): Promise<ClockedServer> {
  const clockDir = mkdtempSync(path.join(tmpdir(), 'flashcards-e2e-clock-'));
  const clockFile = path.join(clockDir, 'offset-ms');
  let offset = 0;
  const write = () => {
    // Written beside it and renamed over it, so the server never reads a half-written number.
    writeFileSync(`${clockFile}.next`, String(offset));
    renameSync(`${clockFile}.next`, clockFile);
  };
  write();
  const preload = pathToFileURL(path.join(repoRoot, 'e2e/support/clock-shift.mjs')).href;
  const server = await startServer(
    {
      E2E_CLOCK_FILE: clockFile,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${preload}`.trim(),
    },
    options,
  );
  return {
    url: server.url,
    dataDir: server.dataDir,
    advanceClock(ms: number) {
      offset += ms;
      write();
    },
    offsetMs: () => offset,
    async stop() {
      await server.stop();
      rmSync(clockDir, { recursive: true, force: true });
    },
  };
}
