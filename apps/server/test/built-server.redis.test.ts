import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBuiltServer, stopBuiltServer } from './support/built-server';
import { DEFAULT_PASSWORD, uniqueEmail } from './support/factories';
import { createTestDatabase, type TestDatabase } from './support/test-database';

// The built server (as `npm start` runs it) with REDIS_URL and GENERATION_QUEUE=redis: the Redis client, BullMQ and
// (with DATABASE_URL) pg are loaded by dynamic import() there, which the build splits into chunks and which the
// tsx-run tests never exercise. Runs only where REDIS_URL is set (see vitest.config.ts).

const redisUrl = process.env.REDIS_URL ?? '';

let database: TestDatabase;
let child: ChildProcess | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  if (child) await stopBuiltServer(child, 'SIGTERM');
  await database?.destroy();
});

async function start(): Promise<string> {
  const server = launchBuiltServer(database, {
    JWT_SECRET: 'built-server-test-secret-that-is-long-enough-0123',
    REDIS_URL: redisUrl,
    GENERATION_QUEUE: 'redis',
    GENERATION_QUEUE_NAME: `built-server-test-${process.pid}`,
  });
  child = server.child;
  return server.listening;
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
