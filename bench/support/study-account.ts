// The account the study benchmarks (cards.bench.ts, study-core.bench.ts) seed and then query: a user and decks made
// 400 days before BENCH_NOW straight into the database, and the real app at BENCH_NOW with a token for that user.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { type Clock, systemClock } from '../../apps/server/src/adapters/clock';
import { createIdGenerator } from '../../apps/server/src/adapters/ids';
import { memoryRateLimiters } from '../../apps/server/src/adapters/rate-limit/rate-limiter';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import type { DatabaseHandle } from '../../apps/server/src/db/database';
import type { Database } from '../../apps/server/src/db/schema';
import { createTokenService } from '../../apps/server/src/modules/auth/tokens';

export const DAY = 86_400_000;
export const BENCH_NOW = Date.parse('2026-11-22T15:00:00.000Z');
/** When the seeded account and its decks were made. */
export const SEEDED_AT = BENCH_NOW - 400 * DAY;
/** The JWT secret of every bench's app (JWT_SECRET of a bench's server process too). */
export const BENCH_SECRET = 'bench-secret-that-is-long-enough-for-hs256-0123456789';

/** The p-th percentile (0 to 100) of ascending samples. */
export function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

export async function insertBenchUser(db: Kysely<Database>, userId: string, email: string): Promise<void> {
  await db
    .insertInto('users')
    .values({
      id: userId,
      email,
      name: 'Bench',
      password_hash: null,
      google_sub: null,
      created_at: SEEDED_AT,
      updated_at: SEEDED_AT,
    })
    .execute();
}

/** The user's deck number `index` (from 0): "Deck 1", "Deck 2", … made one millisecond apart. */
export async function insertBenchDeck(
  db: Kysely<Database>,
  userId: string,
  deckId: string,
  index: number,
): Promise<void> {
  await db
    .insertInto('decks')
    .values({
      id: deckId,
      user_id: userId,
      name: `Deck ${index + 1}`,
      daily_new_card_limit: 20,
      created_at: SEEDED_AT + index,
      updated_at: SEEDED_AT + index,
    })
    .execute();
}

/** The real app in process on `db`, with `env`'s settings, memory rate limiters and no log of its own. */
export function buildBenchApp(
  db: Kysely<Database>,
  env: Record<string, string>,
  clock: Clock = systemClock,
  webDistDir?: string,
): Promise<FastifyInstance> {
  return buildApp({
    webDistDir,
    config: loadConfig(env),
    db,
    jwtSecret: BENCH_SECRET,
    clock,
    newId: createIdGenerator(clock),
    google: null,
    rateLimiters: memoryRateLimiters(),
    logger: false,
  });
}

/**
 * The real app on the benchmark's database (settings `env` over the defaults), its clock stopped at BENCH_NOW, and a
 * token of the seeded user.
 */
export async function startBenchApp(
  handle: DatabaseHandle,
  dataDir: string,
  userId: string,
  env: Record<string, string> = {},
): Promise<{ app: FastifyInstance; token: string }> {
  const clock = { now: () => BENCH_NOW };
  const app = await buildBenchApp(handle.db, { LOG_LEVEL: 'silent', DATA_DIR: dataDir, ...env }, clock);
  await app.ready();
  const token = await createTokenService({ secret: BENCH_SECRET, ttlMs: DAY, clock }).issue(userId, 0);
  return { app, token };
}
