import { serverMessages } from '@flashcards/shared/server-messages';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectError } from '../../../test/support/api-error';
import { learnerWithDeck } from '../../../test/support/study';
import { useTestApp } from '../../../test/support/test-app';

// REVIEW_RATE_LIMIT_PER_DAY counts answers over 24 hours from the first, not one hour. The limiter reads the wall
// clock (Date.now), so this file fakes Date alone (timers stay real) and moves it with the app's test clock.

const HOUR_MS = 3_600_000;

const ctx = useTestApp({ env: { REVIEW_RATE_LIMIT_PER_DAY: '3', AUTH_RATE_LIMIT_PER_IP: '1000' } });

beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(ctx.clock.now());
});

afterAll(() => {
  vi.useRealTimers();
});

/** Moves the app's clock and the wall clock together. */
function advance(ms: number): void {
  ctx.clock.advance(ms);
  vi.setSystemTime(ctx.clock.now());
}

describe('POST /cards/review, the window of REVIEW_RATE_LIMIT_PER_DAY', () => {
  it('answers spread over 23 hours all count; the window ends 24 hours after the first answer', async () => {
    const start = ctx.clock.now();
    const { headers, cards } = await learnerWithDeck(ctx.app, 4);
    const answer = (index: number) =>
      ctx.app.inject({
        method: 'POST',
        url: '/cards/review',
        headers,
        payload: { card_id: cards[index]?._id, result: 'pass' },
      });
    try {
      expect((await answer(0)).statusCode).toBe(200);
      advance(11 * HOUR_MS);
      expect((await answer(1)).statusCode).toBe(200);
      advance(12 * HOUR_MS);
      expect((await answer(2)).statusCode).toBe(200);

      // 23 h 59 min after the first answer: still the same window, one minute of it left.
      advance(59 * 60_000);
      const limited = await answer(3);
      expectError(limited, 429, 'rate_limited', serverMessages.rateLimited);
      expect(Number(limited.headers['retry-after'])).toBe(60);

      advance(60_000 + 1_000);
      expect((await answer(3)).statusCode).toBe(200);
    } finally {
      advance(start - ctx.clock.now());
    }
  });
});
