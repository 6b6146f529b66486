import type { AnswerResponse, DueCard } from '@flashcards/shared/api-types';
import { createEmptyCard, default_w, fsrs, generatorParameters, Rating, State } from 'ts-fsrs';
import { describe, expect, it } from 'vitest';
import { DAY, fixedRandom, learnerWithDeck, MINUTE, putDeckSettings, reviewCard } from '../../../test/support/study';
import { useTestApp } from '../../../test/support/test-app';

/** GET /cards/due's `next_due`: when each card would be due after a pass and after a fail. */

const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000' }, random: fixedRandom() });

type Headers = { authorization: string };

async function due(headers: Headers, deckId: string): Promise<DueCard[]> {
  const response = await ctx.app.inject({ method: 'GET', url: `/cards/due?deck_id=${deckId}`, headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<DueCard[]>();
}

/** ts-fsrs itself, with the product's steps, the given retention and weights, and no fuzz. */
function reference(retention: number, weights?: number[]) {
  return fsrs(
    generatorParameters({
      request_retention: retention,
      maximum_interval: 36_500,
      enable_fuzz: false,
      enable_short_term: true,
      learning_steps: ['1m', '10m'],
      relearning_steps: ['10m'],
      ...(weights ? { w: weights } : {}),
    }),
  );
}

describe('GET /cards/due: next_due', () => {
  it('gives a new card 10 minutes for a pass and 1 minute for a fail, as ts-fsrs does', async () => {
    ctx.clock.set('2026-12-01T10:00:00.000Z');
    const now = ctx.clock.now();
    const { headers, deck, cards } = await learnerWithDeck(ctx.app, 1);
    const [card] = await due(headers, deck._id);

    const scheduler = reference(0.9);
    const empty = createEmptyCard(new Date(now));
    expect(card?._id).toBe(cards[0]?._id);
    expect(card?.next_due).toEqual({
      pass: scheduler.next(empty, new Date(now), Rating.Good).card.due.toISOString(),
      fail: scheduler.next(empty, new Date(now), Rating.Again).card.due.toISOString(),
    });
    expect(card?.next_due).toEqual({
      pass: new Date(now + 10 * MINUTE).toISOString(),
      fail: new Date(now + MINUTE).toISOString(),
    });
  });

  it("computes a review card's times with the learner's own weights and the deck's desired retention", async () => {
    ctx.clock.set('2026-12-01T10:00:00.000Z');
    const { headers, deck, cards, user } = await learnerWithDeck(ctx.app, 1);
    const cardId = cards[0]?._id ?? '';
    const response = await putDeckSettings(ctx.app, headers, deck._id, { desired_retention: 0.8 });
    expect(response.statusCode, response.body).toBe(200);
    const weights = default_w.map((value, index) => (index === 2 ? value * 1.5 : value));
    await ctx.database.db
      .updateTable('users')
      .set({ fsrs_parameters: JSON.stringify(weights) })
      .where('id', '=', user._id)
      .execute();

    // The card as a long-term card, last reviewed 12 days ago and due now.
    const lastReview = ctx.clock.now() - 12 * DAY;
    await ctx.database.db
      .updateTable('cards')
      .set({
        state: State.Review,
        due: ctx.clock.now(),
        stability: 11.5,
        difficulty: 5.2,
        scheduled_days: 12,
        learning_steps: 0,
        reps: 4,
        lapses: 1,
        last_review: lastReview,
      })
      .where('id', '=', cardId)
      .execute();
    ctx.clock.advance(3 * 60 * MINUTE);
    const now = ctx.clock.now();

    const [card] = await due(headers, deck._id);
    const scheduler = reference(0.8, weights);
    const fsrsCard = {
      due: new Date(lastReview + 12 * DAY),
      stability: 11.5,
      difficulty: 5.2,
      elapsed_days: 12,
      scheduled_days: 12,
      learning_steps: 0,
      reps: 4,
      lapses: 1,
      state: State.Review,
      last_review: new Date(lastReview),
    };
    const pass = scheduler.next(fsrsCard, new Date(now), Rating.Good).card.due.toISOString();
    const fail = scheduler.next(fsrsCard, new Date(now), Rating.Again).card.due.toISOString();
    expect(card?.next_due).toEqual({ pass, fail });
    // A fail relearns in 10 minutes; a pass is days away, and further than with the defaults at 90 % retention.
    expect(fail).toBe(new Date(now + 10 * MINUTE).toISOString());
    const withDefaults = reference(0.9).next(fsrsCard, new Date(now), Rating.Good).card.due.getTime();
    expect(Date.parse(pass)).toBeGreaterThan(withDefaults);
  });

  it('lands each answer where next_due said, in the order given, and an undo restores the previews', async () => {
    ctx.clock.set('2026-12-01T10:00:00.000Z');
    const { headers, deck, cards } = await learnerWithDeck(ctx.app, 1);
    const cardId = cards[0]?._id ?? '';
    const [first] = await due(headers, deck._id);

    // The fail lands where next_due said, and the card is then due again within the session.
    const answered = await ctx.app.inject({
      method: 'POST',
      url: '/cards/review',
      headers,
      payload: { card_id: cardId, result: 'fail' },
    });
    expect(answered.statusCode, answered.body).toBe(200);
    const failed = answered.json<AnswerResponse>().card;
    expect(failed.due_date).toBe(first?.next_due.fail);
    expect(await due(headers, deck._id)).toEqual([]);
    ctx.clock.advance(MINUTE);
    const [again] = await due(headers, deck._id);
    expect(again).toMatchObject({ _id: cardId, status: 'learning' });
    // POST /cards/review's own next_due previewed this, a minute earlier: learning steps count from the answer.
    for (const result of ['pass', 'fail'] as const) {
      expect(Date.parse(again?.next_due[result] ?? '') - Date.parse(failed.next_due[result])).toBe(MINUTE);
    }

    // The pass, sent after it, lands where the refreshed next_due said.
    const passed = await reviewCard(ctx.app, headers, cardId, 'pass');
    expect(passed.due_date).toBe(again?.next_due.pass);

    // Undone (the latest answer only: the server keeps one level of undo per card), the card is back in its first
    // learning step, due now, with the same previews as before the pass.
    const response = await ctx.app.inject({ method: 'POST', url: `/cards/${cardId}/undo-review`, headers });
    expect(response.statusCode, response.body).toBe(200);
    const [restored] = await due(headers, deck._id);
    expect(restored).toEqual(again);
    const second = await ctx.app.inject({ method: 'POST', url: `/cards/${cardId}/undo-review`, headers });
    expect(second.statusCode, second.body).toBe(409);
  });
});
