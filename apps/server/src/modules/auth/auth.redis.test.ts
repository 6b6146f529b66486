import { serverMessages } from '@flashcards/shared/server-messages';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../../test/support/api-error';
import { DEFAULT_PASSWORD, loginForm, signUpAndLogIn, uniqueEmail } from '../../../test/support/factories';
import { createTestApp, type TestContext } from '../../../test/support/test-app';
import { redisRateLimiters } from '../../adapters/rate-limit/rate-limiter';

// Collected only when REDIS_URL is set (see vitest.config.ts): CI runs it against the machine's Redis.

const clients: Redis[] = [];
let serverA: TestContext;
let serverB: TestContext;

function redisClient(): Redis {
  const client = new Redis(process.env.REDIS_URL as string);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  serverA = await createTestApp({ rateLimiters: redisRateLimiters(redisClient()) });
  // A second app server: same database, its own Redis connection.
  serverB = await createTestApp({ shareWith: serverA, rateLimiters: redisRateLimiters(redisClient()) });
});

afterAll(async () => {
  await serverB.close();
  await serverA.close();
  await Promise.all(clients.map((client) => client.quit()));
});

describe('login limits shared through Redis', () => {
  it('counts failed logins across app servers: the eleventh gets 429 on either', async () => {
    const email = uniqueEmail('redis');
    await signUpAndLogIn(serverA.app, email);
    for (let attempt = 1; attempt <= 10; attempt++) {
      const server = attempt % 2 === 0 ? serverA : serverB;
      expect((await loginForm(server.app, email, 'wrong password')).statusCode, `attempt ${attempt}`).toBe(401);
    }
    for (const server of [serverA, serverB]) {
      const response = await loginForm(server.app, email, DEFAULT_PASSWORD);
      expectError(response, 429, 'rate_limited', serverMessages.rateLimited);
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }
  });
});
