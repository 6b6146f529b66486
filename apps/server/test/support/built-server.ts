import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { serverEntry, serverNodeOptions } from '../../../../scripts/build-server.mjs';
import { createTestDatabase, type TestDatabase } from './test-database';

const serverDir = fileURLToPath(new URL('../..', import.meta.url));

export interface BuiltServer {
  child: ChildProcess;
  /** The server's URL once it logs "Server listening"; rejects if it exits first or takes over a minute. */
  listening: Promise<string>;
  /** What it has written to stdout so far (while `child.stdout` is read: paused, it reads nothing). */
  output: () => string;
  /** Resolves once stdout holds `text` (already, or when the chunk that brings it is read); rejects if it exits. */
  said: (text: string) => Promise<void>;
}

/**
 * The built server (as `npm start` runs it) as a child process on a free port of 127.0.0.1, on the test database's
 * data folder and (on PostgreSQL) its database; `env` adds to or overrides those settings, `nodeOptions` to its
 * Node options (a benchmark's preloaded monitor).
 */
export function launchBuiltServer(
  database: Pick<TestDatabase, 'options'>,
  env: Record<string, string>,
  nodeOptions: string[] = [],
): BuiltServer {
  const child = spawn(process.execPath, [...serverNodeOptions, ...nodeOptions, serverEntry], {
    cwd: serverDir,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      DATA_DIR: database.options.dataDir,
      DATABASE_URL: database.options.databaseUrl ?? '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let exitCode: number | null | undefined;
  const waiting = new Set<{ text: string; resolve: () => void; reject: (error: Error) => void }>();
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  child.stdout?.on('data', (chunk) => {
    const from = stdout.length;
    stdout += chunk;
    for (const waiter of waiting) {
      if (stdout.indexOf(waiter.text, Math.max(0, from - waiter.text.length)) < 0) continue;
      waiting.delete(waiter);
      waiter.resolve();
    }
  });
  child.once('exit', (code) => {
    exitCode = code;
    for (const waiter of waiting) waiter.reject(new Error(`server exited with ${code} before saying ${waiter.text}`));
    waiting.clear();
  });
  const said = (text: string) =>
    new Promise<void>((resolve, reject) => {
      if (stdout.includes(text)) return resolve();
      if (exitCode !== undefined) return reject(new Error(`server exited with ${exitCode} before saying ${text}`));
      waiting.add({ text, resolve, reject });
    });
  const listening = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${stderr}`)), 60_000);
    let starting = true;
    child.stdout?.on('data', () => {
      const match = starting ? /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout) : null;
      if (match?.[1]) {
        starting = false;
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${stderr}`));
    });
  });
  return { child, listening, output: () => stdout, said };
}

/** Sends `signal` to the server unless it has already exited, and waits for it to exit. */
export function stopBuiltServer(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

/**
 * For a file whose tests each start a built server on a fresh database: `start(env)` launches it and answers once it
 * listens; after each test the server is killed and its database removed.
 */
export function useBuiltServer(jwtSecret: string) {
  let database: TestDatabase | undefined;
  let server: BuiltServer | undefined;
  afterEach(async () => {
    if (server) await stopBuiltServer(server.child, 'SIGKILL');
    server = undefined;
    await database?.destroy();
    database = undefined;
  });
  return async (env: Record<string, string> = {}): Promise<BuiltServer & { url: string }> => {
    database = await createTestDatabase();
    server = launchBuiltServer(database, { JWT_SECRET: jwtSecret, ...env });
    return { ...server, url: await server.listening };
  };
}
