import type { DeckSettings, DeckSummary, DueCard, ExamForecast } from '@flashcards/shared/api-types';
import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../../../test/support/api-error';
import { signUpAndLogIn } from '../../../test/support/factories';
import { DAY, fixedRandom, learnerWithDeck, putDeckSettings } from '../../../test/support/study';
import { useTestApp } from '../../../test/support/test-app';
import type { FsrsState } from '../../db/schema';
import { CardState } from '../study-core/card-state';

// Issue 35, exam date and read aloud: PUT /decks/{id}/settings takes `exam_date` and `tts`, GET
// /decks/{id}/exam-forecast predicts recall on the exam day, and no studied card is scheduled past the exam day.

const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000' }, random: fixedRandom() });

type Headers = { authorization: string };

const HOUR = 3_600_000;
const NOW = '2026-11-22T10:00:00.000Z';
const noTts = { question_lang: null, answer_lang: null, auto: false };

const setZone = async (headers: Headers, time_zone: string) => {
  const response = await ctx.app.inject({ method: 'PUT', url: '/users/me/settings', headers, payload: { time_zone } });
  expect(response.statusCode, response.body).toBe(200);
};

const deckRow = (id: string) =>
  ctx.database.db
    .selectFrom('decks')
    .select(['exam_date', 'tts_question_lang', 'tts_answer_lang', 'tts_auto'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

const forecast = (headers: Headers, deckId: string) =>
  ctx.app.inject({ method: 'GET', url: `/decks/${deckId}/exam-forecast`, headers });

async function settingsOk(headers: Headers, deckId: string, body: Record<string, unknown>): Promise<DeckSettings> {
  const response = await putDeckSettings(ctx.app, headers, deckId, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<DeckSettings>();
}

describe('PUT /decks/{id}/settings: exam_date', () => {
  it('stores a future date, shows it on the deck, and null clears it', async () => {
    ctx.clock.set(NOW);
    const { headers, deck } = await learnerWithDeck(ctx.app);
    expect(deck.exam_date).toBeNull();
    expect(deck.tts).toEqual(noTts);

    expect(await settingsOk(headers, deck._id, { exam_date: '2026-12-10' })).toEqual({
      daily_new_card_limit: 20,
      desired_retention: 0.9,
      exam_date: '2026-12-10',
      tts: noTts,
    });
    expect((await deckRow(deck._id)).exam_date).toBe('2026-12-10');
    const decks = await ctx.app.inject({ method: 'GET', url: '/decks', headers });
    expect(decks.json<DeckSummary[]>()[0]).toMatchObject({ exam_date: '2026-12-10', tts: noTts });
    const one = await ctx.app.inject({ method: 'GET', url: `/decks/${deck._id}`, headers });
    expect(one.json()).toMatchObject({ exam_date: '2026-12-10' });

    // Another setting alone leaves the date as it is; null clears it.
    expect((await settingsOk(headers, deck._id, { daily_new_card_limit: 5 })).exam_date).toBe('2026-12-10');
    expect(await settingsOk(headers, deck._id, { exam_date: null })).toMatchObject({ exam_date: null });
    expect((await deckRow(deck._id)).exam_date).toBeNull();
  });

  it("accepts today and refuses yesterday, in the learner's time zone", async () => {
    ctx.clock.set(NOW);
    const { headers, deck } = await learnerWithDeck(ctx.app);
    expect((await settingsOk(headers, deck._id, { exam_date: '2026-11-22' })).exam_date).toBe('2026-11-22');

    const past = await putDeckSettings(ctx.app, headers, deck._id, { exam_date: '2026-11-21' });
    expectError(past, 422, 'exam_date_in_past', serverMessages.examDateInPast);
    expect((await deckRow(deck._id)).exam_date).toBe('2026-11-22');

    // 10:00 UTC is already the 23rd on Kiritimati (UTC+14): the 22nd is past there.
    await setZone(headers, 'Pacific/Kiritimati');
    const kiritimati = await putDeckSettings(ctx.app, headers, deck._id, { exam_date: '2026-11-22' });
    expectError(kiritimati, 422, 'exam_date_in_past', serverMessages.examDateInPast);
    expect((await settingsOk(headers, deck._id, { exam_date: '2026-11-23' })).exam_date).toBe('2026-11-23');

    // 05:00 UTC is still the 21st in Los Angeles: the 21st is today there.
    ctx.clock.set('2026-11-22T05:00:00.000Z');
    await setZone(headers, 'America/Los_Angeles');
    expect((await settingsOk(headers, deck._id, { exam_date: '2026-11-21' })).exam_date).toBe('2026-11-21');
  });

  it.each([
    ['2026-13-01'],
    ['2026-02-30'],
    ['2027-02-29'],
    ['10/12/2026'],
    ['2026-12-1'],
    [' 2026-12-10'],
    ['2026-12-10T00:00:00Z'],
    [''],
    [20261210],
    [true],
    [{ date: '2026-12-10' }],
    ['9'.repeat(10_000)],
  ])('refuses %j as a date', async (exam_date) => {
    ctx.clock.set(NOW);
    const { headers, deck } = await learnerWithDeck(ctx.app);
    const response = await putDeckSettings(ctx.app, headers, deck._id, { exam_date });
    expectValidationError(response, 'exam_date', serverMessages.examDateInvalid);
    expect((await deckRow(deck._id)).exam_date).toBeNull();
  });

  it("answers 404 for another user's deck and leaves it alone", async () => {
    ctx.clock.set(NOW);
    const owner = await learnerWithDeck(ctx.app);
    const other = await signUpAndLogIn(ctx.app);
    const response = await putDeckSettings(ctx.app, other.headers, owner.deck._id, {
      exam_date: '2026-12-10',
      tts: { auto: true },
    });
    expectError(response, 404, 'deck_not_found', serverMessages.deckNotFound);
    expect(await deckRow(owner.deck._id)).toEqual({
      exam_date: null,
      tts_question_lang: null,
      tts_answer_lang: null,
      tts_auto: 0,
    });
  });
});

describe('PUT /decks/{id}/settings: tts', () => {
  it('stores language tags in their canonical spelling, any field alone, and null clears one', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    const set = await settingsOk(headers, deck._id, { tts: { question_lang: 'fr-ca', answer_lang: 'EN', auto: true } });
    expect(set).toMatchObject({ tts: { question_lang: 'fr-CA', answer_lang: 'en', auto: true } });
    expect(await deckRow(deck._id)).toMatchObject({ tts_question_lang: 'fr-CA', tts_answer_lang: 'en', tts_auto: 1 });

    expect((await settingsOk(headers, deck._id, { tts: { auto: false } })).tts).toEqual({
      question_lang: 'fr-CA',
      answer_lang: 'en',
      auto: false,
    });
    expect((await settingsOk(headers, deck._id, { tts: { question_lang: null } })).tts).toEqual({
      question_lang: null,
      answer_lang: 'en',
      auto: false,
    });
    expect((await settingsOk(headers, deck._id, { tts: { answer_lang: 'zh-hant-tw' } })).tts.answer_lang).toBe(
      'zh-Hant-TW',
    );
    const decks = await ctx.app.inject({ method: 'GET', url: '/decks', headers });
    expect(decks.json<DeckSummary[]>()[0]?.tts).toEqual({
      question_lang: null,
      answer_lang: 'zh-Hant-TW',
      auto: false,
    });
  });

  it.each([
    ['english'.repeat(6)],
    ['en_US'],
    ['123'],
    ['e'],
    ['en--US'],
    ['fr CA'],
    [''],
    ['a'.repeat(10_000)],
    ['en-\u0000'],
  ])('refuses the language tag %j', async (tag) => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    const response = await putDeckSettings(ctx.app, headers, deck._id, { tts: { question_lang: tag } });
    if (tag.includes('\u0000')) {
      expectError(response, 422, 'validation_failed', serverMessages.nulCharacter);
    } else {
      expectError(response, 422, 'invalid_language_tag', serverMessages.ttsLanguageInvalid);
    }
    expect((await deckRow(deck._id)).tts_question_lang).toBeNull();
  });

  it('refuses a tts that is not an object, a tag that is not a string and an auto that is not a boolean', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    expectValidationError(
      await putDeckSettings(ctx.app, headers, deck._id, { tts: 'fr' }),
      'tts',
      serverMessages.ttsInvalid,
    );
    expectValidationError(
      await putDeckSettings(ctx.app, headers, deck._id, { tts: { auto: 'yes' } }),
      'tts.auto',
      serverMessages.ttsAutoInvalid,
    );
    expectValidationError(
      await putDeckSettings(ctx.app, headers, deck._id, { tts: { answer_lang: 42 } }),
      'tts.answer_lang',
      serverMessages.ttsLanguageInvalid,
    );
    expect(await deckRow(deck._id)).toMatchObject({ tts_answer_lang: null, tts_auto: 0 });
  });
});

/** Puts a card of the deck in the given FSRS memory, as if it had been studied (state Review unless told). */
async function studied(
  cardId: string,
  memory: { stability: number; lastReview: number; state?: FsrsState; due?: number },
): Promise<void> {
  await ctx.database.db
    .updateTable('cards')
    .set({
      state: memory.state ?? CardState.Review,
      stability: memory.stability,
      difficulty: 5,
      last_review: memory.lastReview,
      due: memory.due ?? memory.lastReview + Math.round(memory.stability * DAY),
      reps: 3,
      scheduled_days: Math.round(memory.stability),
      first_reviewed_at: memory.lastReview - 5 * DAY,
    })
    .where('id', '=', cardId)
    .execute();
}

/**
 * FSRS-6's forgetting curve written out by hand: R(t, S) = (1 + f·t/S)^(−d), with d = w20 and f = 0.9^(−1/d) − 1,
 * so that R(S, S) = 0.9.
 */
function recall(elapsedDays: number, stability: number, w20 = 0.1542): number {
  const factor = 0.9 ** (-1 / w20) - 1;
  return (1 + (factor * elapsedDays) / stability) ** -w20;
}

describe('GET /decks/{id}/exam-forecast', () => {
  it('answers 404 no_exam_date without a date, 404 deck_not_found for a missing or foreign deck', async () => {
    ctx.clock.set(NOW);
    const { headers, deck } = await learnerWithDeck(ctx.app, 2);
    expectError(await forecast(headers, deck._id), 404, 'no_exam_date', serverMessages.noExamDate);

    await settingsOk(headers, deck._id, { exam_date: '2026-12-01' });
    const other = await signUpAndLogIn(ctx.app);
    expectError(await forecast(other.headers, deck._id), 404, 'deck_not_found', serverMessages.deckNotFound);
    expectError(
      await forecast(headers, '0123456789abcdef01234567'),
      404,
      'deck_not_found',
      serverMessages.deckNotFound,
    );
    expectError(await forecast(headers, 'not-an-id'), 404, 'deck_not_found', serverMessages.deckNotFound);
    const anonymous = await ctx.app.inject({ method: 'GET', url: `/decks/${deck._id}/exam-forecast` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('predicts the mean recall at 04:00 of the exam day, unstudied cards counting 0', async () => {
    ctx.clock.set(NOW);
    const { headers, deck, cards } = await learnerWithDeck(ctx.app, 5);
    await setZone(headers, 'Asia/Tokyo');
    const [a, b, c, d] = cards.map((card) => card._id) as [string, string, string, string];
    // Exam on 2026-12-02 in Tokyo (UTC+9, no daylight saving): 04:00 there is 2026-12-01T19:00Z.
    const examAt = Date.parse('2026-12-01T19:00:00.000Z');
    const lastA = Date.parse('2026-11-20T10:00:00.000Z');
    const lastB = Date.parse('2026-11-01T08:30:00.000Z');
    const lastC = Date.parse('2026-11-22T09:00:00.000Z');
    const lastD = Date.parse('2026-11-21T12:00:00.000Z');
    await studied(a, { stability: 30, lastReview: lastA });
    await studied(b, { stability: 4, lastReview: lastB });
    await studied(c, { stability: 0.8, lastReview: lastC, state: CardState.Learning, due: lastC + 10 * 60_000 });
    await studied(d, { stability: 8, lastReview: lastD, state: CardState.Relearning });
    await settingsOk(headers, deck._id, { exam_date: '2026-12-02' });

    const recalls = [
      recall((examAt - lastA) / DAY, 30),
      recall((examAt - lastB) / DAY, 4),
      recall((examAt - lastC) / DAY, 0.8),
      recall((examAt - lastD) / DAY, 8),
    ];
    // The hand-computed values are what they should be for these memories: one card safe, three at risk.
    expect(recalls.filter((value) => value < 0.9)).toHaveLength(3);
    expect(recalls.filter((value) => value < 0.97)).toHaveLength(4);
    const response = await forecast(headers, deck._id);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<ExamForecast>();
    expect(body).toEqual({
      exam_date: '2026-12-02',
      // Today in Tokyo is 2026-11-22 (19:00 local).
      days_left: 10,
      predicted_recall: expect.any(Number),
      cards_total: 5,
      cards_unstudied: 1,
      cards_at_risk: 3,
      new_per_day: 1,
    });
    expect(body.predicted_recall).toBeCloseTo(recalls.reduce((sum, value) => sum + value, 0) / 5, 7);

    // A stricter desired retention puts the fourth card at risk too.
    await settingsOk(headers, deck._id, { desired_retention: 0.97 });
    const strict = (await forecast(headers, deck._id)).json<ExamForecast>();
    expect(strict.cards_at_risk).toBe(4);
  });

  it("uses the learner's own fitted parameters", async () => {
    ctx.clock.set(NOW);
    const { headers, deck, user, cards } = await learnerWithDeck(ctx.app, 2);
    const [a] = cards.map((card) => card._id) as [string];
    const lastA = Date.parse('2026-11-12T10:00:00.000Z');
    await studied(a, { stability: 5, lastReview: lastA });
    await settingsOk(headers, deck._id, { exam_date: '2026-11-29' });
    const examAt = Date.parse('2026-11-29T04:00:00.000Z');
    const defaults = (await forecast(headers, deck._id)).json<ExamForecast>();
    expect(defaults.predicted_recall).toBeCloseTo(recall((examAt - lastA) / DAY, 5) / 2, 7);

    // Fitted weights: FSRS-6's defaults with a steeper decay (w20 = 0.5).
    const { default_w } = await import('ts-fsrs');
    const weights = [...default_w];
    weights[20] = 0.5;
    await ctx.database.db
      .updateTable('users')
      .set({ fsrs_parameters: JSON.stringify(weights) })
      .where('id', '=', user._id)
      .execute();
    const fitted = (await forecast(headers, deck._id)).json<ExamForecast>();
    expect(fitted.predicted_recall).toBeCloseTo(recall((examAt - lastA) / DAY, 5, 0.5) / 2, 7);
    expect(fitted.predicted_recall).not.toBeCloseTo(defaults.predicted_recall, 3);
  });

  it('plans the new cards a day to finish before the exam, and counts an empty deck as 0', async () => {
    ctx.clock.set(NOW);
    const { headers, deck } = await learnerWithDeck(ctx.app, 7);
    await settingsOk(headers, deck._id, { exam_date: '2026-11-25' });
    expect((await forecast(headers, deck._id)).json<ExamForecast>()).toEqual({
      exam_date: '2026-11-25',
      days_left: 3,
      predicted_recall: 0,
      cards_total: 7,
      cards_unstudied: 7,
      cards_at_risk: 0,
      new_per_day: 3,
    });
    // On the exam day itself whatever is left is today's.
    ctx.clock.set('2026-11-25T08:00:00.000Z');
    expect((await forecast(headers, deck._id)).json<ExamForecast>()).toMatchObject({ days_left: 0, new_per_day: 7 });

    ctx.clock.set(NOW);
    const empty = await learnerWithDeck(ctx.app);
    await settingsOk(empty.headers, empty.deck._id, { exam_date: '2026-11-30' });
    expect((await forecast(empty.headers, empty.deck._id)).json<ExamForecast>()).toEqual({
      exam_date: '2026-11-30',
      days_left: 8,
      predicted_recall: 0,
      cards_total: 0,
      cards_unstudied: 0,
      cards_at_risk: 0,
      new_per_day: 0,
    });
  });
});

/** A learner whose one card is in long-term review with a stability of 120 days, due now. */
async function longTermCard() {
  ctx.clock.set(NOW);
  const learner = await learnerWithDeck(ctx.app, 1);
  const cardId = learner.cards[0]?._id as string;
  await studied(cardId, { stability: 120, lastReview: ctx.clock.now() - 120 * DAY, due: ctx.clock.now() });
  return { ...learner, cardId };
}

const answer = (headers: Headers, cardId: string, result: 'pass' | 'fail' = 'pass') =>
  ctx.app.inject({ method: 'POST', url: '/cards/review', headers, payload: { card_id: cardId, result } });

const cardDue = async (cardId: string) =>
  ctx.database.db
    .selectFrom('cards')
    .select(['due', 'scheduled_days'])
    .where('id', '=', cardId)
    .executeTakeFirstOrThrow();

const latestLog = (cardId: string) =>
  ctx.database.db
    .selectFrom('review_logs')
    .select(['due_after', 'scheduled_days'])
    .where('card_id', '=', cardId)
    .orderBy('reviewed_at', 'desc')
    .executeTakeFirstOrThrow();

describe('scheduling capped at the exam date', () => {
  it('without an exam date the card goes months out (the cap below is the exam, not the scheduler)', async () => {
    const { headers, cardId } = await longTermCard();
    const response = await answer(headers, cardId);
    expect(response.statusCode, response.body).toBe(200);
    expect((await cardDue(cardId)).due).toBeGreaterThan(ctx.clock.now() + 60 * DAY);
  });

  it('POST /cards/review: a pass before the exam day is due by 04:00 of the exam day', async () => {
    const { headers, deck, cardId } = await longTermCard();
    await setZone(headers, 'America/New_York');
    await settingsOk(headers, deck._id, { exam_date: '2026-11-25' });
    // 04:00 in New York (UTC−5 in November) on the 25th.
    const cap = Date.parse('2026-11-25T09:00:00.000Z');
    const response = await answer(headers, cardId);
    expect(response.statusCode, response.body).toBe(200);
    const card = response.json<{ card: DueCard }>().card;
    expect(card.due_date).toBe('2026-11-25T09:00:00.000Z');
    expect(Date.parse(card.next_due.pass)).toBeLessThanOrEqual(cap);
    expect(Date.parse(card.next_due.fail)).toBeLessThanOrEqual(cap);
    // 10:00Z on the 22nd to 09:00Z on the 25th: 2 whole days.
    expect(await cardDue(cardId)).toEqual({ due: cap, scheduled_days: 2 });
    expect(await latestLog(cardId)).toEqual({ due_after: cap, scheduled_days: 2 });

    // The queue's preview of the next answer respects the cap too.
    ctx.clock.set('2026-11-25T10:00:00.000Z');
    const queue = await ctx.app.inject({ method: 'GET', url: `/cards/due?deck_id=${deck._id}`, headers });
    const [queued] = queue.json<DueCard[]>();
    expect(queued?._id).toBe(cardId);
    // Now on the exam day itself: the cap is the day's end, 04:00 on the 26th in New York.
    expect(Date.parse(queued?.next_due.pass ?? '')).toBeLessThanOrEqual(Date.parse('2026-11-26T09:00:00.000Z'));
  });

  it('an answer on the exam day is due by the end of that day; after it, the date caps nothing', async () => {
    const { headers, deck, cardId } = await longTermCard();
    await settingsOk(headers, deck._id, { exam_date: '2026-11-22' });
    const response = await answer(headers, cardId);
    expect(response.json<{ card: DueCard }>().card.due_date).toBe('2026-11-23T04:00:00.000Z');

    ctx.clock.set('2026-11-23T05:00:00.000Z');
    await answer(headers, cardId);
    expect((await cardDue(cardId)).due).toBeGreaterThan(ctx.clock.now() + 2 * DAY);
  });

  it('a learning step shorter than the cap is left alone', async () => {
    ctx.clock.set(NOW);
    const { headers, deck, cards } = await learnerWithDeck(ctx.app, 1);
    const cardId = cards[0]?._id as string;
    await settingsOk(headers, deck._id, { exam_date: '2026-11-23' });
    const response = await answer(headers, cardId, 'fail');
    expect(response.json<{ card: DueCard }>().card.due_date).toBe('2026-11-22T10:01:00.000Z');
  });

  it('POST /reviews/sync caps an offline answer as of its own time', async () => {
    const { headers, deck, cardId } = await longTermCard();
    await settingsOk(headers, deck._id, { exam_date: '2026-11-24' });
    const reviewedAt = ctx.clock.now() - 2 * HOUR;
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/reviews/sync',
      headers,
      payload: {
        reviews: [
          {
            id: '0f8fad5b-d9cb-469f-a165-70867728950e',
            card_id: cardId,
            result: 'pass',
            reviewed_at: new Date(reviewedAt).toISOString(),
          },
        ],
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const [result] = response.json<{ results: { status: string; card?: DueCard }[] }>().results;
    expect(result?.status).toBe('applied');
    expect(result?.card?.due_date).toBe('2026-11-24T04:00:00.000Z');
    expect(await cardDue(cardId)).toEqual({ due: Date.parse('2026-11-24T04:00:00.000Z'), scheduled_days: 1 });
    expect((await latestLog(cardId)).due_after).toBe(Date.parse('2026-11-24T04:00:00.000Z'));
  });

  it("setting an exam date brings the deck's studied cards due after it forward, and only those", async () => {
    ctx.clock.set(NOW);
    const { headers, deck, cards } = await learnerWithDeck(ctx.app, 4);
    const [late, early, fresh] = cards.map((card) => card._id) as [string, string, string];
    const lastReview = ctx.clock.now() - DAY;
    await studied(late, { stability: 40, lastReview, due: ctx.clock.now() + 40 * DAY });
    await studied(early, { stability: 2, lastReview, due: ctx.clock.now() + DAY });
    const other = await learnerWithDeck(ctx.app, 1);
    const othersCard = other.cards[0]?._id as string;
    await studied(othersCard, { stability: 40, lastReview, due: ctx.clock.now() + 40 * DAY });
    const freshDue = (await cardDue(fresh)).due;

    await settingsOk(headers, deck._id, { exam_date: '2026-11-26' });
    const cap = Date.parse('2026-11-26T04:00:00.000Z');
    expect((await cardDue(late)).due).toBe(cap);
    expect((await cardDue(early)).due).toBe(ctx.clock.now() + DAY);
    expect((await cardDue(fresh)).due).toBe(freshDue);
    expect((await cardDue(othersCard)).due).toBe(ctx.clock.now() + 40 * DAY);

    // Clearing the date leaves the cards where they are.
    await settingsOk(headers, deck._id, { exam_date: null });
    expect((await cardDue(late)).due).toBe(cap);
  });

  it('undo restores the card as it was before the capped answer', async () => {
    const { headers, deck, cardId } = await longTermCard();
    const before = await cardDue(cardId);
    await settingsOk(headers, deck._id, { exam_date: '2026-11-24' });
    await answer(headers, cardId);
    const undo = await ctx.app.inject({ method: 'POST', url: `/cards/${cardId}/undo-review`, headers });
    expect(undo.statusCode, undo.body).toBe(200);
    expect(await cardDue(cardId)).toEqual(before);
  });
});
