import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { expectError } from '../../../test/support/api-error';
import { countReviewLogs, rowById } from '../../../test/support/rows';
import { learnerWithCard, learnerWithDeck, reviewCard } from '../../../test/support/study';
import { useTestApp } from '../../../test/support/test-app';

// REVIEW_RATE_LIMIT_PER_DAY: the answers one account may give in 24 hours. It bounds the review-log rows a day can
// add, which GET /decks/stats and GET /cards/due read (every row of the study day) on the event loop.

const ctx = useTestApp({ env: { REVIEW_RATE_LIMIT_PER_DAY: '3', AUTH_RATE_LIMIT_PER_IP: '1000' } });

type Headers = Awaited<ReturnType<typeof learnerWithCard>>['headers'];

function answer(headers: Headers, cardId: string) {
  return ctx.app.inject({
    method: 'POST',
    url: '/cards/review',
    headers,
    payload: { card_id: cardId, result: 'pass' },
  });
}

const reviewLogCount = (userId: string) => countReviewLogs(ctx.database.db, userId);

describe('POST /cards/review, REVIEW_RATE_LIMIT_PER_DAY', () => {
  it('answers that many cards, then 429 rate_limited with Retry-After, writing nothing; other accounts go on', async () => {
    const { headers, user, cards } = await learnerWithDeck(ctx.app, 2);
    const [first, second] = cards.map((card) => card._id) as [string, string];
    await reviewCard(ctx.app, headers, first, 'pass');
    await reviewCard(ctx.app, headers, second, 'pass');
    await reviewCard(ctx.app, headers, first, 'fail');
    const before = await rowById(ctx.database.db, 'cards', second);

    const limited = await answer(headers, second);
    expectError(limited, 429, 'rate_limited', serverMessages.rateLimited);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    expect(await reviewLogCount(user._id)).toBe(3);
    expect(await rowById(ctx.database.db, 'cards', second)).toEqual(before);

    const someoneElse = await learnerWithCard(ctx.app);
    await reviewCard(ctx.app, someoneElse.headers, someoneElse.card._id, 'pass');
    expect(await reviewLogCount(someoneElse.user._id)).toBe(1);
  });

  it('counts refused answers too: three answers to a card that is not there use up the day', async () => {
    const { headers, user, card } = await learnerWithCard(ctx.app);
    const missing = 'ffffffffffffffffffffffff';
    for (let i = 0; i < 3; i++)
      expectError(await answer(headers, missing), 404, 'card_not_found', messages.cardNotFound);
    expectError(await answer(headers, card._id), 429, 'rate_limited', serverMessages.rateLimited);
    expect(await reviewLogCount(user._id)).toBe(0);
  });
});
