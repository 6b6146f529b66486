import type { Card } from '@flashcards/shared/api-types';
import { limits } from '@flashcards/shared/limits';
import { describe, expect, it } from 'vitest';
import { signUpAndLogIn } from '../../../test/support/factories';
import {
  createDeck,
  dueCards,
  learnerWithDeck,
  MINUTE,
  putDeckSettings,
  reviewCard,
  saveCards,
} from '../../../test/support/study';
import { useTestApp } from '../../../test/support/test-app';

/** The daily new-card limit: each deck introduces at most its limit of new cards per UTC day. */

const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });

const ids = (cards: Card[]) => cards.map((card) => card._id);
const byStatus = (cards: Card[], status: Card['status']) => cards.filter((card) => card.status === status);

async function setLimit(headers: { authorization: string }, deckId: string, limit: number) {
  const response = await putDeckSettings(ctx.app, headers, deckId, { daily_new_card_limit: limit });
  expect(response.statusCode).toBe(200);
}

/** A learner whose deck holds `count` new cards and introduces at most `limit` of them a day. */
async function learnerWithLimitedDeck(limit: number, count: number) {
  const { headers, deck } = await learnerWithDeck(ctx.app);
  await setLimit(headers, deck._id, limit);
  return { headers, deck, cards: await saveCards(ctx.app, headers, deck._id, count) };
}

describe('daily new-card limits across a day boundary', () => {
  it('holds the default limit of 20 and a custom limit of 5 per deck, and resets at 04:00 UTC (the study day of a user in the default zone)', async () => {
    ctx.clock.set('2026-12-01T22:00:00.000Z');
    const { headers } = await signUpAndLogIn(ctx.app);
    const big = await createDeck(ctx.app, headers, 'Default limit');
    const small = await createDeck(ctx.app, headers, 'Limit 5');
    await setLimit(headers, small._id, 5);
    const bigCards = await saveCards(ctx.app, headers, big._id, 30);
    ctx.clock.advance(1000);
    const smallCards = await saveCards(ctx.app, headers, small._id, 12);

    // Day 1, nothing studied yet: the first 20 and the first 5, oldest first; all decks together give 25.
    expect(ids(await dueCards(ctx.app, headers, big._id))).toEqual(ids(bigCards.slice(0, 20)));
    expect(ids(await dueCards(ctx.app, headers, small._id))).toEqual(ids(smallCards.slice(0, 5)));
    expect(ids(await dueCards(ctx.app, headers))).toEqual([
      ...ids(bigCards.slice(0, 20)),
      ...ids(smallCards.slice(0, 5)),
    ]);

    // Study 3 of the small deck's new cards: 2 new remain for today, the next ones in order.
    for (const card of smallCards.slice(0, 3)) await reviewCard(ctx.app, headers, card._id, 'pass');
    expect(ids(byStatus(await dueCards(ctx.app, headers, small._id), 'new'))).toEqual(ids(smallCards.slice(3, 5)));
    for (const card of smallCards.slice(3, 5)) await reviewCard(ctx.app, headers, card._id, 'fail');
    expect(byStatus(await dueCards(ctx.app, headers, small._id), 'new')).toEqual([]);

    // Study all 20 of the big deck: no more new cards from it today.
    for (const card of bigCards.slice(0, 20)) await reviewCard(ctx.app, headers, card._id, 'pass');
    expect(await dueCards(ctx.app, headers, big._id)).toEqual([]);

    // Reviewing cards that are already learning does not use up the limit, and their steps come round.
    ctx.clock.advance(10 * MINUTE);
    const learning = await dueCards(ctx.app, headers);
    expect(learning).toHaveLength(25);
    expect(byStatus(learning, 'new')).toEqual([]);
    for (const card of learning.slice(0, 4)) await reviewCard(ctx.app, headers, card._id, 'fail');

    // Midnight UTC is not the rollover any more; one millisecond before 04:00: still day 1, still no new cards.
    ctx.clock.set('2026-12-02T00:00:00.000Z');
    expect(byStatus(await dueCards(ctx.app, headers), 'new')).toEqual([]);
    ctx.clock.set('2026-12-02T03:59:59.999Z');
    expect(byStatus(await dueCards(ctx.app, headers), 'new')).toEqual([]);

    // 04:00 UTC: day 2 gives each deck its limit again: the remaining 10 of the big deck, the next 5 of the small.
    ctx.clock.set('2026-12-02T04:00:00.000Z');
    const day2 = await dueCards(ctx.app, headers);
    expect(ids(byStatus(day2, 'new'))).toEqual([...ids(bigCards.slice(20, 30)), ...ids(smallCards.slice(5, 10))]);
    // Learning cards come first, new cards last.
    const firstNew = day2.findIndex((card) => card.status === 'new');
    expect(day2.slice(0, firstNew).every((card) => card.status === 'learning')).toBe(true);
    expect(day2.slice(firstNew).every((card) => card.status === 'new')).toBe(true);

    // Day 2: 4 of the small deck's 5; then raising its limit to 7 mid-day gives 3 more, lowering it to 0 none.
    for (const card of smallCards.slice(5, 9)) await reviewCard(ctx.app, headers, card._id, 'pass');
    expect(ids(byStatus(await dueCards(ctx.app, headers, small._id), 'new'))).toEqual(ids(smallCards.slice(9, 10)));
    await setLimit(headers, small._id, 7);
    expect(ids(byStatus(await dueCards(ctx.app, headers, small._id), 'new'))).toEqual(ids(smallCards.slice(9, 12)));
    await setLimit(headers, small._id, 0);
    expect(byStatus(await dueCards(ctx.app, headers, small._id), 'new')).toEqual([]);
    // The big deck is unaffected by the small deck's setting.
    expect(ids(byStatus(await dueCards(ctx.app, headers, big._id), 'new'))).toEqual(ids(bigCards.slice(20, 30)));
  });

  it('counts only a card’s first study against the day’s limit', async () => {
    ctx.clock.set('2026-12-05T12:00:00.000Z');
    const { headers, deck, cards } = await learnerWithLimitedDeck(2, 5);
    await reviewCard(ctx.app, headers, cards[0]?._id ?? '', 'pass');
    expect(ids(byStatus(await dueCards(ctx.app, headers, deck._id), 'new'))).toEqual(ids(cards.slice(1, 2)));
    // Studying it again (it is learning now) is not a new introduction.
    ctx.clock.advance(10 * MINUTE);
    await reviewCard(ctx.app, headers, cards[0]?._id ?? '', 'fail');
    expect(ids(byStatus(await dueCards(ctx.app, headers, deck._id), 'new'))).toEqual(ids(cards.slice(1, 2)));
  });

  it('answers at most 200 cards at a time (limits.maxReviewQueue), learning first', async () => {
    ctx.clock.set('2026-12-07T12:00:00.000Z');
    const { headers, cards } = await learnerWithLimitedDeck(9999, 230);
    expect(limits.maxReviewQueue).toBe(200);
    const queue = await dueCards(ctx.app, headers);
    expect(ids(queue)).toEqual(ids(cards.slice(0, 200)));
    // A learning card due now goes to the front; the queue stays at 200.
    await reviewCard(ctx.app, headers, cards[229]?._id ?? '', 'fail');
    ctx.clock.advance(MINUTE);
    const next = await dueCards(ctx.app, headers);
    expect(next).toHaveLength(200);
    expect(next[0]).toMatchObject({ _id: cards[229]?._id, status: 'learning' });
    expect(ids(next.slice(1))).toEqual(ids(cards.slice(0, 199)));
  });
});
