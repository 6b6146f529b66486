import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpAndLogIn } from '../../../test/support/factories';
import { freeUsed as freeUsedIn } from '../../../test/support/generation';
import { createTestApp, TEST_JWT_SECRET, type TestContext } from '../../../test/support/test-app';
import { createIdGenerator } from '../../adapters/ids';
import { memoryRateLimiters } from '../../adapters/rate-limit/rate-limiter';
import { buildApp } from '../../app';
import { type DatabaseHandle, openDatabase } from '../../db/database';

const text = 'Osmosis is the movement of water across a semipermeable membrane.';
const dialect = process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite';

let ctx: TestContext;
let second: FastifyInstance;
let secondDb: DatabaseHandle;

beforeAll(async () => {
  ctx = await createTestApp({ env: { FREE_GENERATIONS_PER_MONTH: '3' } });
  // A second app server with its own connection (pool) to the same database, as behind a load balancer.
  secondDb = openDatabase(ctx.database.options);
  second = await buildApp({
    config: ctx.config,
    db: secondDb.db,
    jwtSecret: TEST_JWT_SECRET,
    clock: ctx.clock,
    newId: createIdGenerator(ctx.clock),
    google: null,
    rateLimiters: memoryRateLimiters(),
    logger: false,
  });
  await second.ready();
});
afterAll(async () => {
  await second.close();
  await secondDb.close();
  await ctx.close();
});

const freeUsed = (userId: string) => freeUsedIn(ctx.database, userId);

describe(`twenty concurrent generations against three units of quota (${dialect})`, () => {
  it('on one app server: exactly three succeed, the rest get 402', async () => {
    const { user, headers } = await signUpAndLogIn(ctx.app);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => ctx.app.inject({ method: 'POST', url: '/create', headers, payload: { text } })),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 402)).toHaveLength(17);
    expect(responses.find((r) => r.statusCode === 402)?.json().code).toBe('insufficient_quota');
    expect(await freeUsed(user._id)).toBe(3);
  });

  it('on two app servers sharing the database: exactly three succeed, the rest get 402', async () => {
    const { user, headers } = await signUpAndLogIn(ctx.app);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? ctx.app : second).inject({ method: 'POST', url: '/create', headers, payload: { text } }),
      ),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 402)).toHaveLength(17);
    expect(await freeUsed(user._id)).toBe(3);
  });
});
