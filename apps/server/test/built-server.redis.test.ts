import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, serverBuildIsStale, serverEntry, serverNodeOptions } from '../../../scripts/build-server.mjs';
import { DEFAULT_PASSWORD, uniqueEmail } from './support/factories';
import { createTestDatabase, type TestDatabase } from './support/test-database';

// The built server (as `npm start` runs it) with REDIS_URL and GENERATION_QUEUE=redis: the Redis client, BullMQ and
// (with DATABASE_URL) pg are loaded by dynamic import() there, which the build splits into chunks and which the
// tsx-run tests never exercise. Runs only where REDIS_URL is set (see vitest.config.ts).

const redisUrl = process.env.REDIS_URL ?? '';
const serverDir = fileURLToPath(new URL('..', import.meta.url));

let database: TestDatabase;
let child: ChildProcess | undefined;

beforeAll(async () => {
  if (serverBuildIsStale()) await buildServer();
  database = await createTestDatabase();
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const running = child;
    await new Promise((resolve) => {
      running.once('exit', resolve);
      running.kill('SIGTERM');
    });
  }
  await database?.destroy();
});

async function start(): Promise<string> {
  const server = spawn(process.execPath, [...serverNodeOptions, serverEntry], {
    cwd: serverDir,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      DATA_DIR: database.options.dataDir,
      JWT_SECRET: 'built-server-test-secret-that-is-long-enough-0123',
      REDIS_URL: redisUrl,
      GENERATION_QUEUE: 'redis',
      GENERATION_QUEUE_NAME: `built-server-test-${process.pid}`,
      DATABASE_URL: database.options.databaseUrl ?? '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = server;
  let stdout = '';
  let stderr = '';
  server.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${stderr}`)), 60_000);
    server.stdout?.on('data', (chunk) => {
      stdout += chunk;
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    server.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${stderr}`));
    });
  });
}

describe('the built server with Redis', () => {
  it('starts, answers, and keeps its rate limits in Redis', { timeout: 90_000 }, async () => {
    const url = await start();
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const email = uniqueEmail('built');
    const signup = await fetch(`${url}/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: DEFAULT_PASSWORD }),
    });
    expect(signup.status, await signup.clone().text()).toBe(201);
    const redis = new Redis(redisUrl);
    try {
      expect(await redis.exists(`rl:signup-email:${email}`)).toBe(1);
    } finally {
      redis.disconnect();
    }
  });
});
