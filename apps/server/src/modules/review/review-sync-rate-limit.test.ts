import { randomUUID } from 'node:crypto';
import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { expectError } from '../../../test/support/api-error';
import { countReviewLogs } from '../../../test/support/rows';
import { learnerWithDeck, reviewCard } from '../../../test/support/study';
import { useTestApp } from '../../../test/support/test-app';

// POST /reviews/sync counts each answer of a batch against REVIEW_RATE_LIMIT_PER_DAY, with POST /cards/review.
const ctx = useTestApp({ env: { REVIEW_RATE_LIMIT_PER_DAY: '5', AUTH_RATE_LIMIT_PER_IP: '1000' } });

type Headers = { authorization: string };

function sync(headers: Headers, cardId: string, count: number) {
  const reviews = Array.from({ length: count }, (_, index) => ({
    id: randomUUID(),
    card_id: cardId,
    result: 'pass',
    reviewed_at: new Date(ctx.clock.now() - (count - index) * 60_000).toISOString(),
  }));
  return ctx.app.inject({ method: 'POST', url: '/reviews/sync', headers, payload: { reviews } });
}

const logCount = (userId: string) => countReviewLogs(ctx.database.db, userId);

describe('POST /reviews/sync and the daily answer limit', () => {
  it('counts every answer of a batch with POST /cards/review; a batch over the limit is refused whole', async () => {
    const { headers, user, cards } = await learnerWithDeck(ctx.app, 1);
    const cardId = cards[0]?._id ?? '';
    await reviewCard(ctx.app, headers, cardId, 'pass');
    expect((await sync(headers, cardId, 3)).statusCode).toBe(200);
    expect(await logCount(user._id)).toBe(4);

    const over = await sync(headers, cardId, 2);
    expectError(over, 429, 'rate_limited', serverMessages.rateLimited);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(await logCount(user._id)).toBe(4);
  });
});
