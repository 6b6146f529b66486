import type { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/**
 * Fixed-window counters keyed by a string (a client address, an email…). In memory for one process, or in Redis
 * when REDIS_URL is set so that several app servers share the same counts.
 */
export interface RateLimiter {
  /**
   * Counts one hit (or `points` hits at once). Resolves with null when allowed, or with the milliseconds to wait
   * when over the limit.
   */
  hit(key: string, points?: number): Promise<number | null>;
  /** Milliseconds to wait if the key is already at its limit, without counting a hit; null otherwise. */
  blockedFor(key: string): Promise<number | null>;
  /** Forgets the key's count (e.g. after a successful login). */
  reset(key: string): Promise<void>;
  /** Gives back one hit counted earlier (an attempt that turned out to be allowed). */
  refund(key: string): Promise<void>;
}

export interface RateLimitRule {
  /** Namespaces the counters, e.g. "login-email". */
  name: string;
  points: number;
  windowMs: number;
}

export type RateLimiterFactory = (rule: RateLimitRule) => RateLimiter;

export function memoryRateLimiters(): RateLimiterFactory {
  return (rule) =>
    wrap(new RateLimiterMemory({ keyPrefix: rule.name, points: rule.points, duration: toSeconds(rule.windowMs) }));
}

export function redisRateLimiters(client: Redis): RateLimiterFactory {
  return (rule) =>
    wrap(
      new RateLimiterRedis({
        storeClient: client,
        keyPrefix: `rl:${rule.name}`,
        points: rule.points,
        duration: toSeconds(rule.windowMs),
      }),
    );
}

function toSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

function wrap(limiter: RateLimiterAbstract): RateLimiter {
  return {
    async hit(key, points = 1) {
      try {
        await limiter.consume(key, points);
        return null;
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return Math.max(1, rejection.msBeforeNext);
        throw rejection;
      }
    },
    async blockedFor(key) {
      const state = await limiter.get(key);
      if (state && state.consumedPoints >= limiter.points) return Math.max(1, state.msBeforeNext);
      return null;
    },
    async reset(key) {
      await limiter.delete(key);
    },
    async refund(key) {
      await limiter.reward(key, 1);
    },
  };
}
