import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { OptimizeResponse, SchedulingInfo } from '@flashcards/shared/api-types';
import { fillMessage } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { default_w } from 'ts-fsrs';
import { describe, expect, it } from 'vitest';
import { expectError } from '../../../test/support/api-error';
import { signUpAndLogIn } from '../../../test/support/factories';
import { perturbedParameters, prng, simulateLearner } from '../../../test/support/simulated-learner';
import { createDeck, DAY, reviewCard, saveCards } from '../../../test/support/study';
import { createTestApp, useTestApp } from '../../../test/support/test-app';
import { waitFor } from '../../../test/support/wait-for';
import { review, schedulerParametersFor } from '../review/scheduler';
import { adjustDeckCounters } from '../study-core/deck-counters';

const HALF = () => 0.5;

const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000', TOKEN_TTL: '3650d' }, random: HALF });

type Headers = { authorization: string };
const START = Date.parse('2026-01-05T10:00:00.000Z');

interface Answer {
  cardId: string;
  at: number;
  rating: number;
  stateBefore: 1 | 2;
  elapsedDays: number;
}

/** Writes the user's `answers` to one deck into review_logs (200 rows an insert), each due again a day later. */
async function insertAnswers(userId: string, deckId: string, answers: Answer[]) {
  const rows = answers.map((answer) => ({
    id: randomBytes(12).toString('hex'),
    user_id: userId,
    deck_id: deckId,
    card_id: answer.cardId,
    reviewed_at: answer.at,
    rating: answer.rating,
    state_before: answer.stateBefore,
    state_after: 2 as const,
    due_before: answer.at,
    due_after: answer.at + DAY,
    stability: 1,
    difficulty: 5,
    scheduled_days: 1,
    elapsed_days: answer.elapsedDays,
  }));
  for (let start = 0; start < rows.length; start += 200) {
    await ctx.database.db
      .insertInto('review_logs')
      .values(rows.slice(start, start + 200))
      .execute();
  }
}

/**
 * Gives the user a review log of `count` answers: a simulated learner whose memory follows FSRS with parameters
 * unlike the defaults (or, with `oneDay`, every answer on the same day), written into review_logs.
 */
async function seedHistory(headers: Headers, userId: string, count: number, options: { oneDay?: boolean } = {}) {
  const deck = await createDeck(ctx.app, headers, 'History');
  const log = simulateLearner(perturbedParameters(prng(7)), count, prng(11));
  const cardCount = Math.max(...log.map((entry) => entry.card)) + 1;
  const cards = await saveCards(ctx.app, headers, deck._id, cardCount);
  await insertAnswers(
    userId,
    deck._id,
    log.map((entry, index) => ({
      cardId: cards[entry.card]?._id ?? '',
      at: options.oneDay ? START + index * 1000 : START + entry.day * DAY + (index % 600) * 1000,
      rating: entry.rating,
      stateBefore: 2,
      elapsedDays: 1,
    })),
  );
  return { deck, cards };
}

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, headers?: Headers) =>
  ctx.app.inject({ method, url, ...(headers ? { headers } : {}) });

async function fitOf(userId: string) {
  return ctx.database.db
    .selectFrom('users')
    .select([
      'fsrs_parameters',
      'fsrs_optimized_at',
      'fsrs_reviews_used',
      'fsrs_log_loss_default',
      'fsrs_log_loss_personal',
    ])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
}

describe('GET /scheduling', () => {
  it('answers the defaults for a new account, with the minimum from FSRS_MIN_REVIEWS (default 400)', async () => {
    ctx.clock.set('2026-06-01T10:00:00.000Z');
    const { headers } = await signUpAndLogIn(ctx.app);
    const response = await call('GET', '/scheduling', headers);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      personalized: false,
      parameters: [...default_w],
      optimized_at: null,
      reviews_used: 0,
      reviews_since: 0,
      min_reviews: 400,
    });
  });

  it('needs a login on all three routes', async () => {
    for (const [method, url] of [
      ['GET', '/scheduling'],
      ['POST', '/scheduling/optimize'],
      ['DELETE', '/scheduling/parameters'],
    ] as const) {
      const response = await call(method, url);
      expectError(response, 401, 'not_authenticated', serverMessages.notAuthenticated);
    }
  });
});

describe('POST /scheduling/optimize', () => {
  it('refuses under the minimum with 422 not_enough_reviews and the exact detail, and stores nothing', async () => {
    ctx.clock.set('2026-06-01T10:00:00.000Z');
    const { headers, user } = await signUpAndLogIn(ctx.app);
    await seedHistory(headers, user._id, 399);
    const response = await call('POST', '/scheduling/optimize', headers);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      detail: 'At least 400 reviews are needed to personalize scheduling (you have 399).',
      code: 'not_enough_reviews',
    });
    expect(response.json().detail).toBe(fillMessage(serverMessages.notEnoughReviews, { min: 400, n: 399 }));
    expect((await fitOf(user._id)).fsrs_parameters).toBeNull();
  });

  it('fits over the minimum, stores the fit, and schedules the next review with it; DELETE goes back', async () => {
    ctx.clock.set('2026-06-01T10:00:00.000Z');
    const { headers, user } = await signUpAndLogIn(ctx.app);
    const { deck, cards } = await seedHistory(headers, user._id, 1200);
    const before = await call('GET', '/scheduling', headers);
    expect(before.json<SchedulingInfo>()).toMatchObject({ personalized: false, reviews_since: 1200 });

    const response = await call('POST', '/scheduling/optimize', headers);
    expect(response.statusCode, response.body).toBe(200);
    const fit = response.json<OptimizeResponse>();
    expect(Object.keys(fit).sort()).toEqual(['log_loss_default', 'log_loss_personal', 'parameters', 'reviews_used']);
    expect(fit.reviews_used).toBe(1200);
    expect(fit.parameters).toHaveLength(default_w.length);
    expect(fit.parameters).not.toEqual([...default_w]);
    expect(fit.log_loss_default).toBeGreaterThan(0);
    expect(fit.log_loss_personal).toBeGreaterThan(0);
    expect(fit.log_loss_personal).toBeLessThan(fit.log_loss_default);

    const stored = await fitOf(user._id);
    expect(JSON.parse(stored.fsrs_parameters ?? 'null')).toEqual(fit.parameters);
    expect(Number(stored.fsrs_optimized_at)).toBe(ctx.clock.now());
    expect(stored.fsrs_reviews_used).toBe(1200);
    expect(stored.fsrs_log_loss_default).toBeCloseTo(fit.log_loss_default, 12);
    expect(stored.fsrs_log_loss_personal).toBeCloseTo(fit.log_loss_personal, 12);

    const info = (await call('GET', '/scheduling', headers)).json<SchedulingInfo>();
    expect(info).toEqual({
      personalized: true,
      parameters: fit.parameters,
      optimized_at: new Date(ctx.clock.now()).toISOString(),
      reviews_used: 1200,
      reviews_since: 0,
      min_reviews: 400,
    });

    // The next review of a long-term card is scheduled with the fitted parameters, not the defaults.
    const card = cards[0];
    ctx.clock.advance(60_000);
    const now = ctx.clock.now();
    const state = {
      state: 2 as const,
      due: now,
      stability: 12,
      difficulty: 5,
      scheduled_days: 12,
      learning_steps: 0,
      reps: 4,
      lapses: 0,
      last_review: now - 12 * DAY,
    };
    await ctx.database.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('cards')
        .set({ ...state, first_reviewed_at: now - 40 * DAY })
        .where('id', '=', card?._id ?? '')
        .execute();
      await adjustDeckCounters(trx, { userId: user._id, deckId: deck._id }, { new_cards: -1, review_cards: 1 });
    });
    const reviewed = await reviewCard(ctx.app, headers, card?._id ?? '', 'pass');
    const personal = review(state, 'pass', now, HALF, schedulerParametersFor(fit.parameters, 0.9));
    const defaults = review(state, 'pass', now, HALF, schedulerParametersFor(null, 0.9));
    expect(personal.next.due).not.toBe(defaults.next.due);
    expect(reviewed.due_date).toBe(new Date(personal.next.due).toISOString());
    expect((await call('GET', '/scheduling', headers)).json<SchedulingInfo>().reviews_since).toBe(1);

    const reset = await call('DELETE', '/scheduling/parameters', headers);
    expect(reset.statusCode).toBe(204);
    expect(reset.body).toBe('');
    expect(await fitOf(user._id)).toEqual({
      fsrs_parameters: null,
      fsrs_optimized_at: null,
      fsrs_reviews_used: 0,
      fsrs_log_loss_default: null,
      fsrs_log_loss_personal: null,
    });
    const after = (await call('GET', '/scheduling', headers)).json<SchedulingInfo>();
    expect(after).toMatchObject({
      personalized: false,
      parameters: [...default_w],
      optimized_at: null,
      reviews_used: 0,
    });
  });

  it('keeps the defaults and says so when every review is on one day', async () => {
    ctx.clock.set('2026-06-01T10:00:00.000Z');
    const { headers, user } = await signUpAndLogIn(ctx.app);
    await seedHistory(headers, user._id, 450, { oneDay: true });
    const response = await call('POST', '/scheduling/optimize', headers);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      parameters: [...default_w],
      reviews_used: 450,
      detail: serverMessages.optimizeKeptDefaults,
    });
    expect((await fitOf(user._id)).fsrs_parameters).toBeNull();
  });
});

/**
 * The audit's crash (t-optimize-crash.mjs): 60 cards answered 7 times on one day (fail, then pass), then 30 of them
 * once more on the next day. fsrs-rs panicked on the same-day items and the panic aborted the whole server.
 */
async function seedTwoDays(headers: Headers, userId: string) {
  const deck = await createDeck(ctx.app, headers, 'Two days');
  const cards = await saveCards(ctx.app, headers, deck._id, 60);
  const answers = cards.flatMap((card, index) => {
    const times = Array.from({ length: 7 }, (_, n) => ({ at: START + index * 10_000 + n * 60_000, rating: n ? 3 : 1 }));
    if (index < 30) times.push({ at: START + DAY + index * 10_000, rating: 3 });
    return times.map(({ at, rating }) => ({ cardId: card._id, at, rating, stateBefore: 1 as const, elapsedDays: 0 }));
  });
  await insertAnswers(userId, deck._id, answers);
}

describe('POST /scheduling/optimize on same-day repeats and long-term reviews (audit finding 1)', () => {
  it('answers 200 through the real optimizer while another learner is served, instead of aborting the server', async () => {
    ctx.clock.set('2026-06-01T10:00:00.000Z');
    const { headers, user } = await signUpAndLogIn(ctx.app);
    const other = await signUpAndLogIn(ctx.app);
    await seedTwoDays(headers, user._id);
    const fitting = call('POST', '/scheduling/optimize', headers);
    const meanwhile = await call('GET', '/scheduling', other.headers);
    expect(meanwhile.statusCode).toBe(200);
    const response = await fitting;
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ reviews_used: 450 });
    expect((await call('GET', '/scheduling', headers)).statusCode).toBe(200);
  });
});

describe('POST /scheduling/optimize per user: one at a time, FSRS_OPTIMIZE_RATE_LIMIT_PER_DAY', () => {
  it('answers 429 optimize_in_progress while the same user fits, and 429 rate_limited past the daily limit', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const limited = await createTestApp({
      shareWith: ctx,
      env: { AUTH_RATE_LIMIT_PER_IP: '1000', TOKEN_TTL: '3650d', FSRS_OPTIMIZE_RATE_LIMIT_PER_DAY: '2' },
      fsrsOptimizer: {
        async fit() {
          await held;
          return { parameters: null, logLossDefault: 0.5, logLossPersonal: null, items: 0 };
        },
      },
    });
    try {
      ctx.clock.set('2026-06-01T10:00:00.000Z');
      const { headers, user } = await signUpAndLogIn(limited.app);
      await seedHistory(headers, user._id, 450);
      const post = () => limited.app.inject({ method: 'POST', url: '/scheduling/optimize', headers });
      const first = post();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expectError(await post(), 429, 'optimize_in_progress', serverMessages.optimizeInProgress);
      release();
      expect((await first).statusCode).toBe(200);
      expect((await post()).statusCode).toBe(200);
      expectError(await post(), 429, 'rate_limited', serverMessages.rateLimited);
      expect((await fitOf(user._id)).fsrs_parameters).toBeNull();
    } finally {
      release();
      await limited.close();
    }
  });
});

describe('POST /scheduling/optimize when the client leaves', () => {
  it('aborts the fit and frees the user for the next one', async () => {
    const signals: AbortSignal[] = [];
    const leaving = await createTestApp({
      shareWith: ctx,
      env: { AUTH_RATE_LIMIT_PER_IP: '1000', TOKEN_TTL: '3650d' },
      fsrsOptimizer: {
        fit(_histories, _defaults, options) {
          const signal = options?.signal as AbortSignal;
          signals.push(signal);
          if (signals.length > 1) {
            return Promise.resolve({ parameters: null, logLossDefault: 0.5, logLossPersonal: null, items: 0 });
          }
          return new Promise((_resolve, reject) =>
            signal.addEventListener('abort', () => reject(new Error('aborted'))),
          );
        },
      },
    });
    try {
      ctx.clock.set('2026-06-01T10:00:00.000Z');
      const url = await leaving.app.listen({ port: 0, host: '127.0.0.1' });
      const { headers, user } = await signUpAndLogIn(leaving.app);
      await seedHistory(headers, user._id, 450);
      const request = httpRequest(`${url}/scheduling/optimize`, { method: 'POST', headers });
      request.on('error', () => {});
      request.end();
      await waitFor(() => signals.length === 1, 10_000);
      expect(signals[0]?.aborted).toBe(false);
      request.destroy();
      await waitFor(() => signals[0]?.aborted, 10_000);
      const again = await leaving.app.inject({ method: 'POST', url: '/scheduling/optimize', headers });
      expect(again.statusCode, again.body).toBe(200);
    } finally {
      await leaving.close();
    }
  });
});

describe('POST /scheduling/optimize past FSRS_OPTIMIZE_TIMEOUT', () => {
  it('answers 503 optimize_timeout and stores nothing', async () => {
    const slow = await createTestApp({ shareWith: ctx, env: { FSRS_OPTIMIZE_TIMEOUT: '1ms', TOKEN_TTL: '3650d' } });
    try {
      ctx.clock.set('2026-06-01T10:00:00.000Z');
      const { headers, user } = await signUpAndLogIn(slow.app);
      await seedHistory(headers, user._id, 600);
      const response = await slow.app.inject({ method: 'POST', url: '/scheduling/optimize', headers });
      expectError(response, 503, 'optimize_timeout', serverMessages.optimizeTimeout);
      expect((await fitOf(user._id)).fsrs_parameters).toBeNull();
    } finally {
      await slow.close();
    }
  });
});
