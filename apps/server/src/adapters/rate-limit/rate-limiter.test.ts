import { describe, expect, it } from 'vitest';
import { memoryRateLimiters } from './rate-limiter';

// The in-memory limiter's contract (the Redis one wraps the same library the same way, see auth.redis.test.ts).

const HOUR = 3_600_000;

describe('memoryRateLimiters', () => {
  it('allows `points` hits per key and window, then answers the wait until the window ends', async () => {
    const limiter = memoryRateLimiters()({ name: 'test-allow', points: 2, windowMs: HOUR });
    expect(await limiter.hit('a')).toBeNull();
    expect(await limiter.hit('a')).toBeNull();
    const wait = await limiter.hit('a');
    expect(wait).toBeGreaterThan(HOUR - 60_000);
    expect(wait).toBeLessThanOrEqual(HOUR);
    // Another key has its own count.
    expect(await limiter.hit('b')).toBeNull();
  });

  it('counts several points at once', async () => {
    const limiter = memoryRateLimiters()({ name: 'test-points', points: 3, windowMs: HOUR });
    expect(await limiter.hit('a', 3)).toBeNull();
    expect(await limiter.hit('a')).not.toBeNull();
    expect(await limiter.hit('b', 4)).not.toBeNull();
  });

  it('rounds a window below a second up to one second, never zero', async () => {
    const limiter = memoryRateLimiters()({ name: 'test-short', points: 1, windowMs: 10 });
    expect(await limiter.hit('a')).toBeNull();
    const wait = await limiter.hit('a');
    expect(wait).toBeGreaterThan(500);
    expect(wait).toBeLessThanOrEqual(1000);
  });

  it('rounds a window of a second and a bit up to two seconds', async () => {
    const limiter = memoryRateLimiters()({ name: 'test-round', points: 1, windowMs: 1001 });
    await limiter.hit('a');
    expect(await limiter.hit('a')).toBeGreaterThan(1500);
  });

  it('tells how long a key at its limit must wait, without counting a hit', async () => {
    const limiter = memoryRateLimiters()({ name: 'test-blocked', points: 2, windowMs: HOUR });
    expect(await limiter.blockedFor('a')).toBeNull();
    await limiter.hit('a');
    // One hit of two: not blocked, and asking did not count.
    expect(await limiter.blockedFor('a')).toBeNull();
    expect(await limiter.blockedFor('a')).toBeNull();
    await limiter.hit('a');
    expect(await limiter.blockedFor('a')).toBeGreaterThan(HOUR - 60_000);
  });

  it('forgets a key on reset and gives one hit back on refund', async () => {
    const limiter = memoryRateLimiters()({ name: 'test-reset', points: 2, windowMs: HOUR });
    await limiter.hit('a');
    await limiter.hit('a');
    await limiter.reset('a');
    expect(await limiter.hit('a')).toBeNull();
    expect(await limiter.hit('a')).toBeNull();
    await limiter.refund('a');
    expect(await limiter.hit('a')).toBeNull();
    expect(await limiter.hit('a')).not.toBeNull();
  });

  it('keeps the counts of two rules apart by their names', async () => {
    const factory = memoryRateLimiters();
    const first = factory({ name: 'test-first', points: 1, windowMs: HOUR });
    const second = factory({ name: 'test-second', points: 1, windowMs: HOUR });
    expect(await first.hit('a')).toBeNull();
    expect(await second.hit('a')).toBeNull();
  });
});
