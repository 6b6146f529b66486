import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { serverEntry, serverNodeOptions } from '../../../scripts/build-server.mjs';
import { uniqueEmail } from './support/factories';
import { createTestDatabase, type TestDatabase } from './support/test-database';

// The real entry point as `npm start` runs it (src/server.ts, built once by the global setup) as a child process:
// configuration errors, the generated JWT secret surviving a restart, and a clean exit on SIGTERM. Every wait is
// for an event of the process (a line it prints, its exit), never for a time: a slow machine only makes it slower.

const serverDir = fileURLToPath(new URL('..', import.meta.url));
const dataDirs: string[] = [];
let database: TestDatabase | undefined;

interface RunningServer {
  url: string;
  child: ChildProcess;
  stop(): Promise<number | null>;
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

const supervisor = fileURLToPath(new URL('../../../scripts/supervise.mjs', import.meta.url));

function run(env: Record<string, string>, supervised = false) {
  const server = [...serverNodeOptions, serverEntry];
  const child = spawn(process.execPath, supervised ? [supervisor, ...server] : server, {
    cwd: serverDir,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  return { child, output: () => ({ stdout, stderr }) };
}

/**
 * Resolves with the URL of the next "Server listening" line after `from` characters of stdout; rejects, with what
 * the process wrote to stderr, if the process exits first.
 */
function listeningUrl(child: ChildProcess, output: () => { stdout: string; stderr: string }, from = 0) {
  return new Promise<string>((resolve, reject) => {
    const done = () => {
      child.stdout?.off('data', check);
      child.off('exit', exited);
    };
    const check = () => {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output().stdout.slice(from));
      if (match?.[1]) {
        done();
        resolve(match[1]);
      }
    };
    const exited = (code: number | null) => {
      done();
      reject(new Error(`server exited with ${code} before listening:\n${output().stderr}`));
    };
    child.stdout?.on('data', check);
    child.once('exit', exited);
    check();
  });
}

async function startServer(env: Record<string, string>): Promise<RunningServer> {
  const { child, output } = run(env);
  const url = await listeningUrl(child, output);
  return {
    url,
    child,
    stop: async () => {
      child.kill('SIGTERM');
      return exitOf(child);
    },
  };
}

function tempDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'flashcards-process-'));
  dataDirs.push(dir);
  return dir;
}

afterAll(async () => {
  await database?.destroy();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

describe('the server process', () => {
  it('exits non-zero on an invalid setting, naming it', async () => {
    const { child, output } = run({ PORT: 'abc', DATA_DIR: tempDataDir() });
    expect(await exitOf(child)).toBe(1);
    expect(output().stderr).toContain('Invalid configuration:');
    expect(output().stderr).toContain('PORT must be a whole number from 0 to 65535 (got "abc")');
  });

  it('keeps the generated JWT secret, so a token survives a restart; SIGTERM exits cleanly', async () => {
    const dataDir = tempDataDir();
    // On PostgreSQL runs, a fresh schema of the test database, so runs never share migration state.
    database = await createTestDatabase();
    const env = { DATA_DIR: dataDir, JWT_SECRET: '', DATABASE_URL: database.options.databaseUrl ?? '' };
    const email = uniqueEmail('restart');
    const password = 'a long enough password';

    const first = await startServer(env);
    let token: string;
    try {
      expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
      const signup = await fetch(`${first.url}/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password, name: 'Restart' }),
      });
      expect(signup.status).toBe(201);
      const login = await fetch(`${first.url}/login`, {
        method: 'POST',
        body: new URLSearchParams({ username: email, password }),
      });
      expect(login.status).toBe(200);
      token = ((await login.json()) as { access_token: string }).access_token;
    } finally {
      expect(await first.stop()).toBe(0);
    }

    const second = await startServer(env);
    try {
      const me = await fetch(`${second.url}/users/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { email: string }).email).toBe(email);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });

  it('under the supervisor (npm start), a server killed with SIGKILL is started again, and SIGTERM ends both', async () => {
    const { child, output } = run({ DATA_DIR: tempDataDir(), DATABASE_URL: '' }, true);
    try {
      const first = await listeningUrl(child, output);
      const health = await fetch(`${first}/healthz`).then((r) => r.json());
      expect(health).toEqual({ status: 'ok' });
      const pid = Number(/"pid":(\d+)/.exec(output().stdout)?.[1]);
      expect(pid).toBeGreaterThan(0);
      expect(pid).not.toBe(child.pid);
      const seen = output().stdout.length;
      process.kill(pid, 'SIGKILL');
      const second = await listeningUrl(child, output, seen);
      expect(output().stderr).toContain('the server died (signal SIGKILL); restarting it in 1 s');
      expect((await fetch(`${second}/healthz`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exitOf(child)).toBe(0);
  }, 60_000);

  it('under the supervisor, a server that cannot start is not restarted and its exit code is kept', async () => {
    const { child, output } = run({ PORT: 'abc', DATA_DIR: tempDataDir() }, true);
    expect(await exitOf(child)).toBe(1);
    expect(output().stderr).toContain('PORT must be a whole number from 0 to 65535 (got "abc")');
    expect(output().stderr).toContain('the server did not start; not restarting it');
  });
});
