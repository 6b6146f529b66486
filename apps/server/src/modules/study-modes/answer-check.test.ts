import type { AnswerCheck } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../../../test/support/api-error';
import { completion, type FakeChatServer, sendJson } from '../../../test/support/fake-chat-server';
import { useFakeChatServer, useModelApp } from '../../../test/support/model-app';
import { learnerWithDeck } from '../../../test/support/study';
import { useTestApp } from '../../../test/support/test-app';

const ctx = useTestApp();

type Headers = { authorization: string };

function check(app: FastifyInstance, headers: Headers | Record<string, never>, cardId: string, payload: unknown) {
  return app.inject({ method: 'POST', url: `/cards/${cardId}/check`, headers, payload: payload as object });
}

/** A learner with one card whose answer is `answer`. */
async function cardAnswering(app: FastifyInstance, answer: string, question = 'Which word?') {
  const learner = await learnerWithDeck(app, [{ question, answer }]);
  const [card] = learner.cards;
  if (!card) throw new Error('the card was not saved');
  return { ...learner, card };
}

describe('POST /cards/{id}/check', () => {
  it('grades a typo as close, suggests pass, and shows the letters that differ', async () => {
    const { headers, card } = await cardAnswering(ctx.app, 'receive');
    const response = await check(ctx.app, headers, card._id, { typed: 'recieve' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      verdict: 'close',
      suggested_result: 'pass',
      expected: 'receive',
      typed: 'recieve',
      diff: [
        { op: 'equal', text: 'rec' },
        { op: 'delete', text: 'e' },
        { op: 'equal', text: 'i' },
        { op: 'insert', text: 'e' },
        { op: 'equal', text: 've' },
      ],
    } satisfies AnswerCheck);
  });

  it('grades by the rules: correct suggests pass, another word suggests fail', async () => {
    const { headers, cards } = await learnerWithDeck(ctx.app, [
      { question: 'Formula of water?', answer: '$H_2O$' },
      { question: 'To influence (verb)?', answer: 'affect' },
      { question: 'Noble gases?', answer: 'helium, neon and argon' },
    ]);
    const [water, affect, gases] = cards.map((card) => card._id) as [string, string, string];
    const cases: [string, string, AnswerCheck['verdict'], AnswerCheck['suggested_result']][] = [
      [water, 'H2O', 'correct', 'pass'],
      [affect, 'effect', 'wrong', 'fail'],
      [gases, 'argon, helium, neon', 'correct', 'pass'],
      [gases, 'argon, helium', 'wrong', 'fail'],
    ];
    for (const [cardId, typed, verdict, suggested] of cases) {
      const response = await check(ctx.app, headers, cardId, { typed });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ verdict, suggested_result: suggested, typed });
    }
  });

  it('costs no generation', async () => {
    const { headers, card } = await cardAnswering(ctx.app, 'Mitochondria');
    for (let i = 0; i < 3; i++) expect((await check(ctx.app, headers, card._id, { typed: 'x' })).statusCode).toBe(200);
    const status = await ctx.app.inject({ method: 'GET', url: '/api/subscription-status', headers });
    expect(status.json()).toMatchObject({ free_used: 0, remaining: 10 });
  });

  it('answers 404 for someone else’s card, an unknown card and a malformed id', async () => {
    const { card } = await cardAnswering(ctx.app, 'Paris');
    const { headers } = await cardAnswering(ctx.app, 'Rome');
    for (const id of [card._id, 'aaaaaaaaaaaaaaaaaaaaaaaa', 'not-an-id', `${card._id}'--`]) {
      expectError(await check(ctx.app, headers, id, { typed: 'Paris' }), 404, 'card_not_found', messages.cardNotFound);
    }
  });

  it('refuses an empty, blank, too long or non-text answer with 422', async () => {
    const { headers, card } = await cardAnswering(ctx.app, 'Paris');
    for (const typed of ['', '   \n\t', 'x'.repeat(1001), 'é'.repeat(10_000), 42, null, ['Paris'], { text: 'Paris' }]) {
      expectValidationError(
        await check(ctx.app, headers, card._id, { typed }),
        'typed',
        serverMessages.typedAnswerInvalid,
      );
    }
    expectValidationError(await check(ctx.app, headers, card._id, {}), 'typed', serverMessages.typedAnswerInvalid);
    const longest = await check(ctx.app, headers, card._id, { typed: 'x'.repeat(1000) });
    expect(longest.statusCode).toBe(200);
    expect(longest.json()).toMatchObject({ verdict: 'wrong', suggested_result: 'fail' });
  });

  it('grades hostile answers (built against regular expressions and edit distances) in bounded time, as wrong', async () => {
    const { headers, card } = await cardAnswering(ctx.app, `${'ab'.repeat(4000)} ${'[a'.repeat(3000)}`);
    for (const typed of [
      'ab'.repeat(500),
      '['.repeat(1000),
      '1,'.repeat(500),
      '\\frac{'.repeat(160),
      '<a'.repeat(500),
    ]) {
      const response = await check(ctx.app, headers, card._id, { typed });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<AnswerCheck>().verdict).toBe('wrong');
    }
  });

  it('needs a signed-in user', async () => {
    const response = await check(ctx.app, {}, 'aaaaaaaaaaaaaaaaaaaaaaaa', { typed: 'Paris' });
    expectError(response, 401, 'not_authenticated', serverMessages.notAuthenticated);
  });
});

describe('POST /cards/review with a typed answer', () => {
  async function logOf(cardId: string) {
    return ctx.database.db
      .selectFrom('review_logs')
      .select(['typed', 'verdict', 'rating'])
      .where('card_id', '=', cardId)
      .execute();
  }

  it('keeps what was typed and the verdict in the review log, overrides included', async () => {
    const { headers, cards } = await learnerWithDeck(ctx.app, 2);
    const [typedOne, plain] = cards.map((card) => card._id) as [string, string];
    const review = (payload: Record<string, unknown>) =>
      ctx.app.inject({ method: 'POST', url: '/cards/review', headers, payload });
    // An override: the grader said wrong, the learner knew better.
    const answered = await review({ card_id: typedOne, result: 'pass', typed: 'Answer one', verdict: 'wrong' });
    expect(answered.statusCode, answered.body).toBe(200);
    expect((await review({ card_id: plain, result: 'fail' })).statusCode).toBe(200);
    expect(await logOf(typedOne)).toEqual([{ typed: 'Answer one', verdict: 'wrong', rating: 3 }]);
    expect(await logOf(plain)).toEqual([{ typed: null, verdict: null, rating: 1 }]);
  });

  it('refuses a broken typed answer or verdict with 422 and logs nothing', async () => {
    const { headers, cards } = await learnerWithDeck(ctx.app, 1);
    const cardId = cards[0]?._id as string;
    const review = (payload: Record<string, unknown>) =>
      ctx.app.inject({
        method: 'POST',
        url: '/cards/review',
        headers,
        payload: { card_id: cardId, result: 'pass', ...payload },
      });
    for (const typed of ['', 'x'.repeat(1001), 7]) {
      expectValidationError(await review({ typed }), 'typed', serverMessages.typedAnswerInvalid);
    }
    for (const verdict of ['maybe', '', 1, null]) {
      expectValidationError(await review({ verdict }), 'verdict', serverMessages.verdictInvalid);
    }
    expect(await logOf(cardId)).toEqual([]);
  });
});

describe('POST /cards/{id}/check with a model', () => {
  const fake = useFakeChatServer();
  const withModel = useModelApp(fake, { ANSWER_JUDGE_TIMEOUT: '300ms', ANSWER_JUDGE_RATE_LIMIT_PER_HOUR: '2' });
  const long = 'It speeds up the reaction without being used up itself';

  const catalyst = (app: FastifyInstance) =>
    cardAnswering(app, 'A catalyst speeds up a reaction without being consumed', 'What does a catalyst do?');

  it('has the model judge an answer of more than 8 words, with its one line on a close answer', async () => {
    fake.handler = (_request, res) =>
      sendJson(
        res,
        200,
        completion(JSON.stringify({ verdict: 'close', explanation: 'Say that it is a catalyst.\nMore' })),
      );
    const { headers, card } = await catalyst(withModel.app);
    const response = await check(withModel.app, headers, card._id, { typed: long });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      verdict: 'close',
      suggested_result: 'pass',
      explanation: 'Say that it is a catalyst.',
      typed: long,
    });
    expect(fake.requests).toHaveLength(1);
    const prompt = fake.requests[0]?.body.messages.map((message) => message.content).join('\n') ?? '';
    expect(prompt).toContain('What does a catalyst do?');
    expect(prompt).toContain(long);
    expect(fake.requests[0]?.body.response_format?.json_schema?.name).toBe('judgement');
  });

  it('grades answers of 8 words or fewer by the rules, without asking the model', async () => {
    const { headers, card } = await cardAnswering(withModel.app, 'receive');
    const response = await check(withModel.app, headers, card._id, { typed: 'recieve' });
    expect(response.json()).toMatchObject({ verdict: 'close' });
    expect(response.json()).not.toHaveProperty('explanation');
    expect(fake.requests).toHaveLength(0);
  });

  it('falls back to the rules when the model fails, replies nonsense, or runs past its deadline', async () => {
    const handlers: FakeChatServer['handler'][] = [
      (_request, res) => sendJson(res, 500, { error: { message: 'down' } }),
      (_request, res) => sendJson(res, 200, completion('{"verdict":"maybe"}')),
      // Never answers: the judge's deadline ends the wait.
      () => undefined,
    ];
    for (const handler of handlers) {
      fake.handler = handler;
      // A new learner each time: the judge's hourly allowance is per user.
      const { headers, card } = await catalyst(withModel.app);
      const response = await check(withModel.app, headers, card._id, { typed: long });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ verdict: 'wrong', suggested_result: 'fail' });
      expect(response.json()).not.toHaveProperty('explanation');
    }
    expect(fake.requests).toHaveLength(3);
  });

  it('past ANSWER_JUDGE_RATE_LIMIT_PER_HOUR, grades by the rules without asking the model', async () => {
    fake.handler = (_request, res) => sendJson(res, 200, completion('{"verdict":"correct","explanation":""}'));
    const { headers, card } = await catalyst(withModel.app);
    const verdicts: string[] = [];
    for (let i = 0; i < 3; i++) {
      verdicts.push((await check(withModel.app, headers, card._id, { typed: long })).json<AnswerCheck>().verdict);
    }
    expect(verdicts).toEqual(['correct', 'correct', 'wrong']);
    expect(fake.requests).toHaveLength(2);
  });
});
