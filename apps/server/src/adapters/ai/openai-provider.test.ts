import { setTimeout as sleep } from 'node:timers/promises';
import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectError } from '../../../test/support/api-error';
import { signUpAndLogIn } from '../../../test/support/factories';
import { completion, FakeChatServer, sendJson } from '../../../test/support/fake-chat-server';
import { insertDeck, postQuiz } from '../../../test/support/quiz';
import { createTestApp, type TestContext } from '../../../test/support/test-app';
import { parseCardsReply } from './openai-provider';

const source = 'The mitral valve separates the left atrium from the left ventricle.';
const serverCards = [
  { question: 'What does the mitral valve separate?', answer: 'The left atrium and the left ventricle' },
  { question: 'Mean arterial pressure formula?', answer: '$MAP \\approx DBP + \\tfrac{1}{3}(SBP - DBP)$' },
];
/** What the model is asked for: each card with the passage it came from (the second one is not in the text). */
const quotedCards = [
  { ...serverCards[0], quote: source },
  { ...serverCards[1], quote: 'MAP is diastolic pressure plus a third of the pulse pressure.' },
];
/** The cards as POST /create answers them: the first quote found in the material, the second not. */
const answeredCards = [
  { ...serverCards[0], source: { quote: source }, verified: true },
  {
    ...serverCards[1],
    source: { quote: 'MAP is diastolic pressure plus a third of the pulse pressure.' },
    verified: false,
  },
];

let fake: FakeChatServer;
let ctx: TestContext;
let slow: TestContext;

beforeAll(async () => {
  fake = new FakeChatServer();
  const baseUrl = await fake.start();
  const env = { AI_PROVIDER: 'openai', OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: 'sk-test', AI_MODEL: 'test-model' };
  ctx = await createTestApp({ env: { ...env, AI_MAX_RETRIES: '2' } });
  slow = await createTestApp({ env: { ...env, AI_TIMEOUT: '1s' }, shareWith: ctx });
});
afterAll(async () => {
  await slow.close();
  await ctx.close();
  await fake.stop();
});
beforeEach(() => {
  fake.requests.length = 0;
});

function create(app: TestContext, headers: Record<string, string>, text = source) {
  return app.app.inject({ method: 'POST', url: '/create', headers, payload: { text } });
}

async function remaining(headers: Record<string, string>) {
  const status = await ctx.app.inject({ method: 'GET', url: '/api/subscription-status', headers });
  return status.json<{ remaining: number }>().remaining;
}

describe('openai provider against a chat-completions server', () => {
  it('sends the model, the JSON schema and the text, and returns the server’s cards', async () => {
    fake.handler = (_request, res) => sendJson(res, 200, completion(JSON.stringify({ cards: quotedCards })));
    const { headers } = await signUpAndLogIn(ctx.app);
    const response = await create(ctx, headers);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ cards: answeredCards, cost: 1, remaining: 9 });
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request?.authorization).toBe('Bearer sk-test');
    expect(request?.body.model).toBe('test-model');
    expect(request?.body.response_format?.type).toBe('json_schema');
    expect(request?.body.response_format?.json_schema?.schema).toMatchObject({
      type: 'object',
      required: ['cards'],
      properties: { cards: { type: 'array', items: { required: ['question', 'answer', 'quote'] } } },
    });
    expect(request?.body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(request?.body.messages[1]?.content).toContain(source);
    expect(request?.body.messages[0]?.content).toMatch(/atomic/);
    expect(request?.body.messages[0]?.content).toMatch(/\$\.\.\.\$/);
  });

  it('drops malformed cards from the reply and parses JSON wrapped in prose', async () => {
    fake.handler = (_request, res) =>
      sendJson(
        res,
        200,
        completion(
          `Here you go:\n\`\`\`json\n${JSON.stringify({
            cards: [...quotedCards, { question: '  ', answer: 'x' }, { question: 'Same?', answer: 'same?' }, { q: 1 }],
          })}\n\`\`\``,
        ),
      );
    const { headers } = await signUpAndLogIn(ctx.app);
    const response = await create(ctx, headers);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().cards).toEqual(answeredCards);
  });

  it('retries a 429 and then succeeds', async () => {
    let calls = 0;
    fake.handler = (_request, res) => {
      calls++;
      if (calls === 1) sendJson(res, 429, { error: { message: 'slow down' } }, { 'retry-after-ms': '10' });
      else sendJson(res, 200, completion(JSON.stringify({ cards: quotedCards })));
    };
    const { headers } = await signUpAndLogIn(ctx.app);
    const response = await create(ctx, headers);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().cards).toEqual(answeredCards);
    expect(fake.requests).toHaveLength(2);
  });

  it('persistent 500s give 502 with a detail, after the retries, and the quota is refunded', async () => {
    fake.handler = (_request, res) =>
      sendJson(res, 500, { error: { message: 'internal secret stack' } }, { 'retry-after-ms': '10' });
    const { headers } = await signUpAndLogIn(ctx.app);
    const response = await create(ctx, headers);
    expectError(response, 502, 'ai_unavailable', serverMessages.aiUnavailable);
    expect(response.body).not.toContain('secret');
    expect(fake.requests).toHaveLength(3);
    expect(await remaining(headers)).toBe(10);
  });

  it('garbage output twice gives 502 (one retry) and a refund', async () => {
    fake.handler = (_request, res) => sendJson(res, 200, completion('I cannot help with JSON today.'));
    const { headers } = await signUpAndLogIn(ctx.app);
    const response = await create(ctx, headers);
    expect(response.statusCode).toBe(502);
    expect(response.json().code).toBe('ai_unavailable');
    expect(fake.requests).toHaveLength(2);
    expect(await remaining(headers)).toBe(10);
  });

  it('garbage once then good output succeeds', async () => {
    let calls = 0;
    fake.handler = (_request, res) => {
      calls++;
      sendJson(res, 200, completion(calls === 1 ? '{"cards": [' : JSON.stringify({ cards: serverCards })));
    };
    const { headers } = await signUpAndLogIn(ctx.app);
    const response = await create(ctx, headers);
    expect(response.statusCode, response.body).toBe(200);
    expect(fake.requests).toHaveLength(2);
  });

  it('asks again without structured output when the server refuses response_format', async () => {
    fake.handler = (request, res) => {
      if (request.body.response_format) {
        sendJson(res, 400, { error: { message: 'response_format json_schema is not supported' } });
      } else {
        sendJson(res, 200, completion(JSON.stringify(quotedCards)));
      }
    };
    const isolated = await createTestApp({
      env: { AI_PROVIDER: 'openai', OPENAI_BASE_URL: ctx.config.ai.baseUrl ?? '', AI_MODEL: 'local-llama' },
      shareWith: ctx,
    });
    try {
      const { headers } = await signUpAndLogIn(isolated.app);
      const response = await create(isolated, headers);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().cards).toEqual(answeredCards);
      expect(fake.requests.map((r) => Boolean(r.body.response_format))).toEqual([true, false]);
      expect(fake.requests[1]?.authorization).toBe('Bearer no-key');
    } finally {
      await isolated.close();
    }
  });

  it('a server slower than the deadline gives 504 and a refund', async () => {
    fake.handler = async (_request, res) => {
      await sleep(3000);
      if (!res.destroyed) sendJson(res, 200, completion(JSON.stringify({ cards: serverCards })));
    };
    const { headers } = await signUpAndLogIn(slow.app);
    const response = await create(slow, headers);
    expectError(response, 504, 'ai_timeout', messages.generationTimeout);
    expect(await remaining(headers)).toBe(10);
  });
});

describe('parseCardsReply', () => {
  it('finds the cards in JSON, fenced JSON, a bare array, or prose around JSON', () => {
    const cards = [{ question: 'Q', answer: 'A' }];
    expect(parseCardsReply(JSON.stringify({ cards }))).toEqual(cards);
    expect(parseCardsReply(`\`\`\`json\n${JSON.stringify(cards)}\n\`\`\``)).toEqual(cards);
    expect(parseCardsReply(`Sure! ${JSON.stringify({ flashcards: cards })} Hope it helps.`)).toEqual(cards);
    expect(parseCardsReply('no json here')).toBeNull();
    expect(parseCardsReply('')).toBeNull();
  });
});

describe('quiz through the openai provider', () => {
  it('sends the deck’s cards, returns the model’s new questions, and drops copies of the cards', async () => {
    const fresh = { question: 'Blood flows from the left atrium into which chamber?', answer: 'The left ventricle' };
    fake.handler = (_request, res) =>
      sendJson(res, 200, completion(JSON.stringify({ cards: [fresh, serverCards[0]] })));
    const { user, headers } = await signUpAndLogIn(ctx.app);
    const deckId = await insertDeck(ctx, user._id, serverCards.slice(0, 1), 'Heart');
    const response = await postQuiz(ctx.app, headers, { deck_id: deckId });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ mode: 'flip', questions: [fresh], cards: [fresh] });
    const prompt = fake.requests[0]?.body.messages ?? [];
    expect(prompt[0]?.content).toMatch(/another angle/);
    expect(prompt[1]?.content).toContain(serverCards[0]?.question);
    expect(await remaining(headers)).toBe(10);
  });

  it('a failing provider gives 502 with the quiz message', async () => {
    fake.handler = (_request, res) => sendJson(res, 503, { error: { message: 'down' } }, { 'retry-after-ms': '5' });
    const { user, headers } = await signUpAndLogIn(ctx.app);
    const deckId = await insertDeck(ctx, user._id, serverCards.slice(0, 1), 'Heart');
    const response = await postQuiz(ctx.app, headers, { deck_id: deckId });
    expectError(response, 502, 'ai_unavailable', messages.quizFailed);
  });
});
