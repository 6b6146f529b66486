import { describe, expect, it } from 'vitest';
import { learnerWithCard, learnerWithDeck } from '../../../test/support/study';
import { useTestApp } from '../../../test/support/test-app';

const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });

describe('concurrent reviews', () => {
  it('records 50 reviews of 50 different cards sent at once: 50 review-log rows, 50 cards updated', async () => {
    const { headers, user, deck, cards } = await learnerWithDeck(ctx.app, 50);
    const responses = await Promise.all(
      cards.map((card, index) =>
        ctx.app.inject({
          method: 'POST',
          url: '/cards/review',
          headers,
          payload: { card_id: card._id, result: index % 2 === 0 ? 'pass' : 'fail' },
        }),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(cards.map(() => 200));

    const db = ctx.database.db;
    const logs = await db.selectFrom('review_logs').selectAll().where('user_id', '=', user._id).execute();
    expect(logs).toHaveLength(50);
    expect(new Set(logs.map((log) => log.card_id))).toEqual(new Set(cards.map((card) => card._id)));
    const rows = await db.selectFrom('cards').selectAll().where('deck_id', '=', deck._id).execute();
    expect(rows).toHaveLength(50);
    for (const row of rows) {
      expect(row).toMatchObject({
        state: 1,
        reps: 1,
        last_review: ctx.clock.now(),
        first_reviewed_at: ctx.clock.now(),
      });
    }
    const failed = new Set(cards.filter((_, index) => index % 2 === 1).map((card) => card._id));
    for (const log of logs) expect(log.rating).toBe(failed.has(log.card_id) ? 1 : 3);
  });

  it('applies simultaneous reviews of one card one after the other, none lost', async () => {
    const { headers, card } = await learnerWithCard(ctx.app);
    const responses = await Promise.all(
      Array.from({ length: 5 }, () =>
        ctx.app.inject({
          method: 'POST',
          url: '/cards/review',
          headers,
          payload: { card_id: card._id, result: 'pass' },
        }),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const db = ctx.database.db;
    const row = await db.selectFrom('cards').selectAll().where('id', '=', card._id).executeTakeFirstOrThrow();
    expect(row.reps).toBe(5);
    const logs = await db.selectFrom('review_logs').selectAll().where('card_id', '=', card._id).orderBy('id').execute();
    expect(logs).toHaveLength(5);
    // Each review started from the state the previous one left.
    expect(logs[0]?.state_before).toBe(0);
    for (let index = 1; index < logs.length; index++) {
      expect(logs[index]?.state_before).toBe(logs[index - 1]?.state_after);
      expect(logs[index]?.due_before).toBe(logs[index - 1]?.due_after);
    }
  });
});
