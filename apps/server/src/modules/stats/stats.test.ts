import type { ForecastResponse, HistoryResponse } from '@flashcards/shared/api-types';
import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../../../test/support/api-error';
import { signUpAndLogIn } from '../../../test/support/factories';
import { sendBrokenJson } from '../../../test/support/request-bodies';
import { rowById } from '../../../test/support/rows';
import {
  createDeck,
  DAY,
  dueCards,
  fixedRandom,
  learnerWithDeck,
  MINUTE,
  putDeckSettings,
  reviewCard,
  saveCards,
} from '../../../test/support/study';
import { useTestApp } from '../../../test/support/test-app';
import { adjustDeckCounters } from '../study-core/deck-counters';

// Tokens that outlive the clock's travels through months.
const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000', TOKEN_TTL: '3650d' }, random: fixedRandom() });

type Headers = { authorization: string };
const HOUR = 3_600_000;

async function setZone(headers: Headers, time_zone: unknown) {
  return ctx.app.inject({ method: 'PUT', url: '/users/me/settings', headers, payload: { time_zone } });
}

/** A new user in `zone` with one deck ("Biology") of `count` new cards. */
async function learnerInZone(zone: string, count: number) {
  const learner = await signUpAndLogIn(ctx.app);
  expect((await setZone(learner.headers, zone)).statusCode).toBe(200);
  const deck = await createDeck(ctx.app, learner.headers);
  return { ...learner, deck, cards: await saveCards(ctx.app, learner.headers, deck._id, count) };
}

async function get<T>(headers: Headers, url: string): Promise<T> {
  const response = await ctx.app.inject({ method: 'GET', url, headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<T>();
}

async function setLimit(headers: Headers, deckId: string, limit: number) {
  const response = await putDeckSettings(ctx.app, headers, deckId, { daily_new_card_limit: limit });
  expect(response.statusCode).toBe(200);
}

/** Puts a card in long-term review (FSRS state 2), due at `due`, as if it had been learned before. */
async function makeLongTerm(userId: string, deckId: string, cardId: string, due: number) {
  await ctx.database.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('cards')
      .set({
        state: 2,
        due,
        stability: 10,
        difficulty: 5,
        scheduled_days: 10,
        reps: 3,
        last_review: due - 10 * DAY,
        first_reviewed_at: due - 20 * DAY,
      })
      .where('id', '=', cardId)
      .execute();
    await adjustDeckCounters(trx, { userId, deckId }, { new_cards: -1, review_cards: 1 });
  });
}

const newIds = async (headers: Headers, deckId: string) =>
  (await dueCards(ctx.app, headers, deckId)).filter((card) => card.status === 'new').map((card) => card._id);

describe('PUT /users/me/settings', () => {
  it('sets the time zone, answers it, and GET /users/me shows it (UTC before)', async () => {
    const { headers, user } = await signUpAndLogIn(ctx.app);
    expect((await get<{ time_zone: string }>(headers, '/users/me')).time_zone).toBe('UTC');
    const response = await setZone(headers, 'America/Los_Angeles');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ time_zone: 'America/Los_Angeles' });
    expect((await get<{ time_zone: string }>(headers, '/users/me')).time_zone).toBe('America/Los_Angeles');
    const row = await rowById(ctx.database.db, 'users', user._id);
    expect(row.time_zone).toBe('America/Los_Angeles');
  });

  it('stores the canonical spelling of a zone', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const response = await setZone(headers, ' europe/paris ');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ time_zone: 'Europe/Paris' });
  });

  it.each([
    ['Mars/Olympus_Mons'],
    [''],
    ['   '],
    ['+05:00'],
    ['../../etc/passwd'],
    ['x'.repeat(10_000)],
    [42],
    [null],
    [true],
    [['Europe/Paris']],
    [{ zone: 'Europe/Paris' }],
    [undefined],
  ])('refuses %j with 422 invalid_time_zone and keeps the zone', async (value) => {
    const { headers, user } = await signUpAndLogIn(ctx.app);
    const response = await setZone(headers, value);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ detail: serverMessages.invalidTimeZone, code: 'invalid_time_zone' });
    const row = await rowById(ctx.database.db, 'users', user._id);
    expect(row.time_zone).toBe('UTC');
  });

  it('refuses a body that is not JSON with 400 and needs a login', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const broken = await sendBrokenJson(ctx.app, 'PUT', '/users/me/settings', headers, '{"time_zone":');
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ code: 'bad_request' });
    const anonymous = await ctx.app.inject({
      method: 'PUT',
      url: '/users/me/settings',
      payload: { time_zone: 'UTC' },
    });
    expectError(anonymous, 401, 'not_authenticated', serverMessages.notAuthenticated);
  });
});

describe('the study day: 04:00 to 04:00 in the learner’s zone', () => {
  // [zone, an instant one millisecond before 04:00 local, 04:00 local] (the day before is 23, 24 or 25 hours long).
  const cases = [
    ['America/Los_Angeles', '2026-11-23T11:59:59.999Z', '2026-11-23T12:00:00.000Z', 24],
    ['Asia/Kolkata', '2026-11-22T22:29:59.999Z', '2026-11-22T22:30:00.000Z', 24],
    ['Asia/Kathmandu', '2026-11-22T22:14:59.999Z', '2026-11-22T22:15:00.000Z', 24],
    // Daylight saving starts on 8 March 2026 at 02:00 (PST → PDT): the study day of 7 March has 23 hours.
    ['America/Los_Angeles', '2026-03-08T10:59:59.999Z', '2026-03-08T11:00:00.000Z', 23],
    // Daylight saving ends on 25 October 2026 at 03:00 (CEST → CET): the study day of 24 October has 25 hours.
    ['Europe/Paris', '2026-10-25T02:59:59.999Z', '2026-10-25T03:00:00.000Z', 25],
  ] as const;

  it.each(cases)(
    'in %s the daily new-card limit and cards_reviewed_today reset at 04:00 local (%s → %s)',
    async (zone, before, rollover, hours) => {
      ctx.clock.set(new Date(Date.parse(rollover) - hours * HOUR + MINUTE).toISOString());
      const { headers } = await signUpAndLogIn(ctx.app);
      expect((await setZone(headers, zone)).statusCode).toBe(200);
      const deck = await createDeck(ctx.app, headers);
      await setLimit(headers, deck._id, 2);
      const cards = await saveCards(ctx.app, headers, deck._id, 6);

      // Early in the previous study day (just after its 04:00), two new cards are studied: the limit is used up.
      ctx.clock.set(new Date(Date.parse(rollover) - hours * HOUR + MINUTE).toISOString());
      for (const id of await newIds(headers, deck._id)) await reviewCard(ctx.app, headers, id, 'pass');
      expect(await newIds(headers, deck._id)).toEqual([]);

      ctx.clock.set(before);
      expect(await newIds(headers, deck._id)).toEqual([]);
      const late = await get<{ cards_reviewed_today: number }>(headers, `/decks/${deck._id}/stats`);
      expect(late.cards_reviewed_today).toBe(2);

      ctx.clock.set(rollover);
      expect(await newIds(headers, deck._id)).toEqual([cards[2]?._id, cards[3]?._id]);
      const fresh = await get<{ cards_reviewed_today: number }>(headers, `/decks/${deck._id}/stats`);
      expect(fresh.cards_reviewed_today).toBe(0);

      // The history puts those reviews on the previous study date, and today has none yet.
      const history = await get<HistoryResponse>(headers, '/stats/history?days=2');
      expect(history.time_zone).toBe(zone);
      const today = history.days[1];
      expect(history.days[0]).toMatchObject({ reviews: 2, passed: 2, new_cards: 2 });
      expect(today).toMatchObject({ reviews: 0, passed: 0, new_cards: 0 });
      // Today's date is the local calendar date of 04:00.
      const localDate = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date(rollover));
      expect(today?.date).toBe(localDate);
    },
  );
});

describe('GET /stats/history', () => {
  it('lists every day oldest first with zeros, counts answers, passes and first answers, and the streak', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    expect((await setZone(headers, 'Europe/Paris')).statusCode).toBe(200);
    const deck = await createDeck(ctx.app, headers);
    await setLimit(headers, deck._id, 100);
    const cards = await saveCards(ctx.app, headers, deck._id, 10);
    const at = (iso: string) => ctx.clock.set(iso);

    // 1 Dec (local 10:00): two new cards, one passed and one failed; the failed one again 10 minutes later.
    at('2026-12-01T09:00:00.000Z');
    await reviewCard(ctx.app, headers, cards[0]?._id ?? '', 'pass');
    await reviewCard(ctx.app, headers, cards[1]?._id ?? '', 'fail');
    ctx.clock.advance(10 * MINUTE);
    await reviewCard(ctx.app, headers, cards[1]?._id ?? '', 'pass');
    // 3 Dec at 02:30 local still belongs to the study day of 2 Dec.
    at('2026-12-03T01:30:00.000Z');
    await reviewCard(ctx.app, headers, cards[2]?._id ?? '', 'pass');
    // 3 Dec, 4 Dec: one each.
    at('2026-12-03T12:00:00.000Z');
    await reviewCard(ctx.app, headers, cards[3]?._id ?? '', 'pass');
    at('2026-12-04T12:00:00.000Z');
    await reviewCard(ctx.app, headers, cards[4]?._id ?? '', 'fail');

    at('2026-12-05T08:00:00.000Z');
    const history = await get<HistoryResponse>(headers, '/stats/history?days=6');
    expect(history).toEqual({
      time_zone: 'Europe/Paris',
      days: [
        { date: '2026-11-30', reviews: 0, passed: 0, new_cards: 0 },
        { date: '2026-12-01', reviews: 3, passed: 2, new_cards: 2 },
        { date: '2026-12-02', reviews: 1, passed: 1, new_cards: 1 },
        { date: '2026-12-03', reviews: 1, passed: 1, new_cards: 1 },
        { date: '2026-12-04', reviews: 1, passed: 0, new_cards: 1 },
        { date: '2026-12-05', reviews: 0, passed: 0, new_cards: 0 },
      ],
      // Nothing yet today: the streak ends yesterday (1 to 4 December).
      streak_days: 4,
      retention_30d: null,
      reviews_30d: 0,
    });

    // A review today extends the streak through today.
    await reviewCard(ctx.app, headers, cards[5]?._id ?? '', 'pass');
    const after = await get<HistoryResponse>(headers, '/stats/history?days=1');
    expect(after.days).toEqual([{ date: '2026-12-05', reviews: 1, passed: 1, new_cards: 1 }]);
    expect(after.streak_days).toBe(5);

    // A day without reviews breaks it: two days later, nothing today or yesterday.
    at('2026-12-07T08:00:00.000Z');
    const broken = await get<HistoryResponse>(headers, '/stats/history?days=3');
    expect(broken.streak_days).toBe(0);
    // The default range is 365 days, today last.
    const year = await get<HistoryResponse>(headers, '/stats/history');
    expect(year.days).toHaveLength(365);
    expect(year.days[364]?.date).toBe('2026-12-07');
    expect(year.days[0]?.date).toBe('2025-12-08');
  });

  it('counts retention only over answers to cards in long-term review, in the last 30 days, per deck or all', async () => {
    const { headers, user } = await signUpAndLogIn(ctx.app);
    const deck = await createDeck(ctx.app, headers, 'Long term');
    const other = await createDeck(ctx.app, headers, 'Other');
    const cards = await saveCards(ctx.app, headers, deck._id, 6);
    const otherCards = await saveCards(ctx.app, headers, other._id, 2);
    ctx.clock.set('2026-11-01T12:00:00.000Z');
    const start = ctx.clock.now();
    // Four long-term cards in the deck, one in the other deck, all due now.
    for (const card of [...cards.slice(0, 4)]) await makeLongTerm(user._id, deck._id, card._id, start);
    await makeLongTerm(user._id, other._id, otherCards[0]?._id ?? '', start);

    // 40 days ago (outside the window): a long-term fail that must not count.
    await reviewCard(ctx.app, headers, cards[0]?._id ?? '', 'fail');
    ctx.clock.set('2026-12-11T12:00:00.000Z');
    for (const card of cards.slice(1, 4)) await makeLongTerm(user._id, deck._id, card._id, ctx.clock.now());
    // Within 30 days: long-term answers pass, pass, fail; new cards (fail, fail) and the other deck (pass).
    await reviewCard(ctx.app, headers, cards[1]?._id ?? '', 'pass');
    await reviewCard(ctx.app, headers, cards[2]?._id ?? '', 'pass');
    await reviewCard(ctx.app, headers, cards[3]?._id ?? '', 'fail');
    await reviewCard(ctx.app, headers, cards[4]?._id ?? '', 'fail');
    await reviewCard(ctx.app, headers, cards[5]?._id ?? '', 'fail');
    await reviewCard(ctx.app, headers, otherCards[0]?._id ?? '', 'pass');

    const forDeck = await get<HistoryResponse>(headers, `/stats/history?days=30&deck_id=${deck._id}`);
    expect(forDeck.reviews_30d).toBe(3);
    expect(forDeck.retention_30d).toBeCloseTo(2 / 3, 10);
    expect(forDeck.days[29]).toEqual({ date: '2026-12-11', reviews: 5, passed: 2, new_cards: 2 });
    const all = await get<HistoryResponse>(headers, '/stats/history?days=30');
    expect(all.reviews_30d).toBe(4);
    expect(all.retention_30d).toBeCloseTo(3 / 4, 10);
    // `days` does not narrow the retention window: it is always the last 30 days.
    const short = await get<HistoryResponse>(headers, '/stats/history?days=1');
    expect(short.reviews_30d).toBe(4);
    // 40 days back the fail is in the history, outside the retention.
    const long = await get<HistoryResponse>(headers, '/stats/history?days=41');
    expect(long.days[0]).toEqual({ date: '2026-11-01', reviews: 1, passed: 0, new_cards: 0 });
  });

  it('follows a streak longer than the range asked for, and longer than a year', async () => {
    const {
      headers,
      user,
      deck,
      cards: [card],
    } = await learnerWithDeck(ctx.app, 1);
    // 400 days of one review a day, written straight into the rollup (the review path is tested above).
    const today = Date.parse('2026-12-20T12:00:00.000Z');
    const rows = Array.from({ length: 400 }, (_, index) => ({
      user_id: user._id,
      deck_id: deck._id,
      bucket: Math.floor((today - index * DAY) / 900_000),
      reviews: 1,
      passed: 1,
      new_cards: 0,
      mature_reviews: 0,
      mature_passed: 0,
    }));
    await ctx.database.db.insertInto('review_stats').values(rows).execute();
    expect(card).toBeDefined();
    ctx.clock.set('2026-12-20T13:00:00.000Z');
    const history = await get<HistoryResponse>(headers, '/stats/history?days=7');
    expect(history.streak_days).toBe(400);
    expect(history.days.every((day) => day.reviews === 1)).toBe(true);
  });

  it.each([
    ['days=0'],
    ['days=367'],
    ['days=-1'],
    ['days=1.5'],
    ['days=abc'],
    ['days=1e2'],
    ['days=99999999999999999999'],
    ['days=1&days=2'],
  ])('refuses %s with 422 validation_failed', async (query) => {
    const { headers } = await signUpAndLogIn(ctx.app);
    for (const path of ['/stats/history', '/stats/forecast']) {
      const response = await ctx.app.inject({ method: 'GET', url: `${path}?${query}`, headers });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ detail: serverMessages.statsDaysInvalid, code: 'validation_failed' });
    }
  });

  it('answers 404 deck_not_found for another user’s deck or a malformed id, and 401 without a login', async () => {
    const owner = await signUpAndLogIn(ctx.app);
    const deck = await createDeck(ctx.app, owner.headers);
    const { headers } = await signUpAndLogIn(ctx.app);
    for (const path of ['/stats/history', '/stats/forecast']) {
      for (const id of [deck._id, 'not-an-id', '0123456789abcdef01234567', "'; drop table cards; --"]) {
        const response = await ctx.app.inject({
          method: 'GET',
          url: `${path}?deck_id=${encodeURIComponent(id)}`,
          headers,
        });
        expectError(response, 404, 'deck_not_found', serverMessages.deckNotFound);
      }
      const anonymous = await ctx.app.inject({ method: 'GET', url: path });
      expectError(anonymous, 401, 'not_authenticated', serverMessages.notAuthenticated);
    }
  });
});

describe('GET /stats/forecast', () => {
  it('puts overdue and later-today cards on today, later cards on their local study day', async () => {
    const { headers, user, deck, cards } = await learnerInZone('America/New_York', 8);
    // Now: 2026-11-22 10:00 in New York (15:00Z); today's study day ends 2026-11-23 04:00 local (09:00Z).
    ctx.clock.set('2026-11-22T15:00:00.000Z');
    const ids = cards.map((card) => card._id);
    const due = [
      Date.parse('2026-10-01T12:00:00.000Z'), // long overdue
      Date.parse('2026-11-22T14:00:00.000Z'), // due an hour ago
      Date.parse('2026-11-23T08:59:59.999Z'), // 03:59 local tomorrow: still today's study day
      Date.parse('2026-11-23T09:00:00.000Z'), // 04:00 local: tomorrow
      Date.parse('2026-11-24T20:00:00.000Z'), // the day after
      Date.parse('2026-11-29T12:00:00.000Z'), // beyond a 3-day forecast
    ];
    for (const [index, at] of due.entries()) await makeLongTerm(user._id, deck._id, ids[index] ?? '', at);
    // A learning card due in ten minutes counts today; new cards never count.
    await reviewCard(ctx.app, headers, ids[6] ?? '', 'fail');

    const forecast = await get<ForecastResponse>(headers, '/stats/forecast?days=3');
    expect(forecast).toEqual({
      time_zone: 'America/New_York',
      days: [
        { date: '2026-11-22', due: 4 },
        { date: '2026-11-23', due: 1 },
        { date: '2026-11-24', due: 1 },
      ],
    });
    const month = await get<ForecastResponse>(headers, `/stats/forecast?deck_id=${deck._id}`);
    expect(month.days).toHaveLength(30);
    expect(month.days.find((day) => day.date === '2026-11-29')?.due).toBe(1);
    expect(month.days.reduce((sum, day) => sum + day.due, 0)).toBe(7);
  });

  it('splits days correctly across a daylight-saving change', async () => {
    const { headers, user, deck, cards } = await learnerInZone('Europe/Paris', 3);
    ctx.clock.set('2026-10-23T10:00:00.000Z');
    // The study day of 24 October runs from 02:00Z (04:00 CEST) to 03:00Z on the 25th (04:00 CET): 25 hours.
    const due = ['2026-10-24T02:00:00.000Z', '2026-10-25T02:59:59.999Z', '2026-10-25T03:00:00.000Z'];
    for (const [index, at] of due.entries()) {
      await makeLongTerm(user._id, deck._id, cards[index]?._id ?? '', Date.parse(at));
    }
    const forecast = await get<ForecastResponse>(headers, '/stats/forecast?days=4');
    expect(forecast.days).toEqual([
      { date: '2026-10-23', due: 0 },
      { date: '2026-10-24', due: 2 },
      { date: '2026-10-25', due: 1 },
      { date: '2026-10-26', due: 0 },
    ]);
  });
});

describe('PUT /decks/{id}/settings: desired_retention', () => {
  it('sets the desired retention alone, keeps the limit, and answers both', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    expect(deck.desired_retention).toBe(0.9);
    const response = await putDeckSettings(ctx.app, headers, deck._id, { desired_retention: 0.85 });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      daily_new_card_limit: 20,
      desired_retention: 0.85,
      exam_date: null,
      tts: { question_lang: null, answer_lang: null, auto: false },
    });
    const both = await putDeckSettings(ctx.app, headers, deck._id, {
      daily_new_card_limit: 7,
      desired_retention: 0.97,
    });
    expect(both.json()).toEqual({
      daily_new_card_limit: 7,
      desired_retention: 0.97,
      exam_date: null,
      tts: { question_lang: null, answer_lang: null, auto: false },
    });
    const listed = await get<{ _id: string; desired_retention: number }[]>(headers, '/decks');
    expect(listed.find((item) => item._id === deck._id)?.desired_retention).toBe(0.97);
  });

  it.each([[0.69], [0.98], [1], [0], [-0.9], ['0.9'], [null], [true], [Number.MAX_VALUE]])(
    'refuses %j with 422 validation_failed and changes nothing',
    async (value) => {
      const { headers, deck } = await learnerWithDeck(ctx.app);
      const response = await putDeckSettings(ctx.app, headers, deck._id, {
        daily_new_card_limit: 5,
        desired_retention: value,
      });
      expectValidationError(response, 'desired_retention', serverMessages.desiredRetentionInvalid);
      const row = await rowById(ctx.database.db, 'decks', deck._id);
      expect(row).toMatchObject({ daily_new_card_limit: 20, desired_retention: 0.9 });
    },
  );

  it('refuses a body with neither setting', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    const response = await putDeckSettings(ctx.app, headers, deck._id, {});
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ detail: serverMessages.dailyLimitInvalid, code: 'validation_failed' });
  });

  it('schedules a deck’s reviews with its desired retention: higher retention, shorter interval', async () => {
    const { headers, user } = await signUpAndLogIn(ctx.app);
    const relaxed = await createDeck(ctx.app, headers, 'Relaxed');
    const strict = await createDeck(ctx.app, headers, 'Strict');
    for (const [deck, retention] of [
      [relaxed, 0.7],
      [strict, 0.97],
    ] as const) {
      const response = await putDeckSettings(ctx.app, headers, deck._id, { desired_retention: retention });
      expect(response.statusCode).toBe(200);
    }
    ctx.clock.set('2026-11-10T12:00:00.000Z');
    const [a] = await saveCards(ctx.app, headers, relaxed._id, 1);
    const [b] = await saveCards(ctx.app, headers, strict._id, 1);
    for (const [card, deck] of [
      [a, relaxed],
      [b, strict],
    ] as const) {
      await makeLongTerm(user._id, deck._id, card?._id ?? '', ctx.clock.now());
    }
    const relaxedCard = await reviewCard(ctx.app, headers, a?._id ?? '', 'pass');
    const strictCard = await reviewCard(ctx.app, headers, b?._id ?? '', 'pass');
    const days = (card: { due_date: string }) => (Date.parse(card.due_date) - ctx.clock.now()) / DAY;
    expect(days(relaxedCard)).toBeGreaterThan(2 * days(strictCard));
  });
});
