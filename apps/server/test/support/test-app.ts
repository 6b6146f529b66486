import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import type { FsrsOptimizer } from '../../src/adapters/fsrs/fsrs-optimizer';
import type { GoogleIdTokenVerifier } from '../../src/adapters/google/id-token-verifier';
import { createIdGenerator } from '../../src/adapters/ids';
import type { PaymentProvider } from '../../src/adapters/payments/payment-provider';
import { memoryRateLimiters, type RateLimiterFactory } from '../../src/adapters/rate-limit/rate-limiter';
import { buildApp } from '../../src/app';
import { type Config, loadConfig } from '../../src/config';
import type { ImportParser } from '../../src/modules/interop/import-runner';
import { TestClock } from './test-clock';
import { createTestDatabase, type TestDatabase } from './test-database';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

export interface TestContext {
  app: FastifyInstance;
  database: TestDatabase;
  clock: TestClock;
  config: Config;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Settings as environment variables, read through the real config schema. */
  env?: Record<string, string>;
  google?: GoogleIdTokenVerifier | null;
  rateLimiters?: RateLimiterFactory;
  /** A payment provider other than the one the config selects (e.g. Stripe pointed at a local server). */
  payments?: PaymentProvider;
  /** The scheduler's fuzz randomness (default: Math.random). */
  random?: () => number;
  webDistDir?: string;
  /** Share another context's database and clock (a second app server). */
  shareWith?: TestContext;
  /** Told about every route the app adds. */
  onRoute?: (route: RouteOptions) => void;
  /** Idle time before a keep-alive comment on POST /create's event stream (15 s by default). */
  keepAliveMs?: number;
  /** Where the app makes its folder of uploads waiting to be parsed. */
  uploadsParentDir?: string;
  /** Fits FSRS parameters in place of the child process per fit (a test that holds a fit open). */
  fsrsOptimizer?: FsrsOptimizer;
  /** Reads imported files in place of the child process per import (a test that holds an import open). */
  importParser?: ImportParser;
  /** Where the app writes its log at level info (captureLog's `stream`); by default it logs nothing. */
  logStream?: { write(line: string): void };
  /** Runs before app.ready(), e.g. to add a route that a test needs. */
  beforeReady?: (app: FastifyInstance) => void;
}

/** A real app (every module, the real config schema) on a fresh test database, without a network listener. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestContext> {
  const database = options.shareWith?.database ?? (await createTestDatabase());
  const clock = options.shareWith?.clock ?? new TestClock();
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: database.options.dataDir, ...options.env });
  const app = await buildApp({
    config,
    db: database.db,
    jwtSecret: TEST_JWT_SECRET,
    clock,
    newId: createIdGenerator(clock),
    google: options.google ?? null,
    rateLimiters: options.rateLimiters ?? memoryRateLimiters(),
    ...(options.random ? { random: options.random } : {}),
    webDistDir: options.webDistDir,
    ...(options.payments ? { payments: options.payments } : {}),
    ...(options.keepAliveMs ? { keepAliveMs: options.keepAliveMs } : {}),
    ...(options.uploadsParentDir ? { uploadsParentDir: options.uploadsParentDir } : {}),
    logger: options.logStream ? { level: 'info', stream: options.logStream } : false,
    ...(options.onRoute ? { onRoute: options.onRoute } : {}),
    ...(options.importParser ? { importParser: options.importParser } : {}),
    ...(options.fsrsOptimizer ? { fsrsOptimizer: options.fsrsOptimizer } : {}),
  });
  options.beforeReady?.(app);
  await app.ready();
  return {
    app,
    database,
    clock,
    config,
    async close() {
      await app.close();
      if (!options.shareWith) await database.destroy();
    },
  };
}

/**
 * One app for the whole test file: built in `beforeAll` (with the options, or what `options()` returns once the
 * file's other fixtures are ready) and closed in `afterAll`. Read it as `ctx.app`, `ctx.database`… inside tests.
 */
export function useTestApp(
  options: TestAppOptions | (() => TestAppOptions | Promise<TestAppOptions>) = {},
): TestContext {
  let current: TestContext | undefined;
  beforeAll(async () => {
    current = await createTestApp(typeof options === 'function' ? await options() : options);
  });
  afterAll(async () => {
    await current?.close();
  });
  const built = (): TestContext => {
    if (!current) throw new Error('the test app is built in beforeAll: use it inside a test or a hook');
    return current;
  };
  return {
    get app() {
      return built().app;
    },
    get database() {
      return built().database;
    },
    get clock() {
      return built().clock;
    },
    get config() {
      return built().config;
    },
    close: () => built().close(),
  };
}
