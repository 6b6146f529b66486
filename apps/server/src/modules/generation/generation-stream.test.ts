/**
 * POST /create with `Accept: text/event-stream` (docs/api.md, "Streaming generation"): every event, errors
 * before work staying JSON, cards streamed before the model finishes, parallel chunks, the refund rule when the
 * client leaves, and keep-alive comments. Runs on SQLite, and on PostgreSQL when DATABASE_URL is set.
 */
import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../../test/support/api-error';
import { setBillingFields } from '../../../test/support/billing';
import {
  type LiveStream,
  nextCard,
  openCreateStream,
  parseEventStream,
  readAll,
  type StreamEvent,
} from '../../../test/support/event-stream';
import { deleteAccount, signUpAndLogIn } from '../../../test/support/factories';
import {
  cardsReply,
  completion,
  FakeChatServer,
  sendJson,
  streamCompletion,
  watchedStream,
} from '../../../test/support/fake-chat-server';
import {
  biology,
  biologyCards,
  freeUsed as freeUsedIn,
  leaveCreate,
  postCreate,
  twoSlidePptx,
} from '../../../test/support/generation';
import { captureLog } from '../../../test/support/log-capture';
import type { multipartBody } from '../../../test/support/multipart';
import { createTestApp, type TestContext } from '../../../test/support/test-app';
import { waitFor } from '../../../test/support/wait-for';

const sse = { accept: 'text/event-stream' };

let offline: TestContext;
let model: TestContext;
let modelUrl: string;
let fakeUrl: string;
const fake = new FakeChatServer();
const modelLog = captureLog();

beforeAll(async () => {
  offline = await createTestApp();
  const baseUrl = await fake.start();
  fakeUrl = baseUrl;
  model = await createTestApp({
    env: {
      AI_PROVIDER: 'openai',
      OPENAI_BASE_URL: baseUrl,
      AI_MODEL: 'test-model',
      AI_MAX_RETRIES: '0',
      AI_TIMEOUT: '20s',
      FREE_GENERATIONS_PER_MONTH: '50',
    },
    keepAliveMs: 100,
    logStream: modelLog.stream,
  });
  modelUrl = await model.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await offline.close();
  // fetch's connection pool may hold a connection it opened and never used after an aborted request.
  model.app.server.closeAllConnections();
  await model.close();
  await fake.stop();
});

const freeUsed = (ctx: TestContext, userId: string) => freeUsedIn(ctx.database, userId);

const create = (ctx: TestContext, headers: Record<string, string>, parts: Parameters<typeof multipartBody>[0]) =>
  postCreate(ctx.app, headers, parts);

const named = (events: StreamEvent[], name: string) => events.filter((e) => e.event === name);

/** What the service logs once it has settled a generation the client left: whether the cost was refunded. */
const cancelled = (from: number) => modelLog.line('generation cancelled: the client left', from);

describe('POST /create as an event stream, offline generator', () => {
  it('streams progress, each card, then done with the JSON reply’s body; costs 1', async () => {
    const { user, headers } = await signUpAndLogIn(offline.app);
    const response = await create(offline, { ...headers, ...sse }, [{ name: 'text', value: biology }]);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-request-id']).toBeTruthy();
    const { events } = parseEventStream(response.body);
    const expected = { cards: biologyCards, cost: 1, remaining: 9 };
    // Each card is sent once its source and duplicate check are done, so progress may run ahead of the cards.
    expect(events.filter((e) => e.event !== 'progress').map((e) => e.event)).toEqual(['card', 'card', 'done']);
    expect(events[0]?.event).toBe('progress');
    expect(events[0]?.data).toEqual({ stage: 'generating', done: 0, total: 40 });
    expect(named(events, 'card').map((e) => e.data)).toEqual(expected.cards);
    expect(named(events, 'progress').map((e) => e.data.done)).toEqual([0, 1, 2]);
    expect(events.at(-1)?.data).toEqual(expected);
    expect(await freeUsed(offline, user._id)).toBe(1);

    // Without the header: the same generation answers as before, one JSON body.
    const plain = await create(offline, headers, [{ name: 'text', value: biology }]);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toMatch(/^application\/json/);
    expect(plain.json()).toEqual({ ...expected, remaining: 8 });
  });

  it('reports slides read, then cards, and the cards carry their slide', async () => {
    const bytes = await twoSlidePptx();
    const { user, headers } = await signUpAndLogIn(offline.app);
    const response = await create(offline, { ...headers, ...sse }, [
      { name: 'file', value: bytes, filename: 'cells.pptx' },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const { events } = parseEventStream(response.body);
    const firstCard = events.findIndex((e) => e.event === 'card');
    const extracting = named(events, 'progress').filter((e) => e.data.stage === 'extracting');
    expect(extracting.length).toBeGreaterThanOrEqual(2);
    expect(extracting.at(-1)?.data.done).toBe(extracting.at(-1)?.data.total);
    expect(events.findIndex((e) => e.event === 'progress' && e.data.stage === 'extracting')).toBeLessThan(firstCard);
    const done = events.at(-1);
    expect(done?.event).toBe('done');
    expect(done?.data.cost).toBe(5);
    expect(done?.data.cards.map((card: { source?: { slide?: number } }) => card.source?.slide)).toEqual([1, 2]);
    expect(done?.data.cards.map((card: { source?: { document?: string } }) => card.source?.document)).toEqual([
      'cells.pptx',
      'cells.pptx',
    ]);
    expect(done?.data.cards.map((card: { verified?: boolean }) => card.verified)).toEqual([true, true]);
    expect(named(events, 'card').map((e) => e.data)).toEqual(done?.data.cards);
    expect(await freeUsed(offline, user._id)).toBe(5);
  });

  it('ends with an error event when the work fails, and refunds', async () => {
    const { user, headers } = await signUpAndLogIn(offline.app);
    // Text that defines nothing: the offline generator writes no card.
    const response = await create(offline, { ...headers, ...sse }, [{ name: 'text', value: 'hello hello hello' }]);
    expect(response.statusCode).toBe(200);
    const { events } = parseEventStream(response.body);
    expect(events.at(-1)).toEqual({
      event: 'error',
      data: { detail: serverMessages.noCardsGenerated, code: 'no_cards_generated', status: 422 },
    });
    expect(named(events, 'done')).toEqual([]);
    expect(await freeUsed(offline, user._id)).toBe(0);
  });

  it('answers checks that fail before any work as JSON with their status (empty input is 422, not 500)', async () => {
    const { user, headers } = await signUpAndLogIn(offline.app);
    const cases: { parts: Parameters<typeof multipartBody>[0]; status: number; code: string; detail: string }[] = [
      { parts: [], status: 422, code: 'empty_input', detail: messages.emptyInput },
      { parts: [{ name: 'text', value: '  \n ' }], status: 422, code: 'empty_input', detail: messages.emptyInput },
      {
        parts: [{ name: 'text', value: 'a'.repeat(10_001) }],
        status: 413,
        code: 'text_too_long',
        detail: messages.textTooLong,
      },
      {
        parts: [{ name: 'file', value: Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe]), filename: 'x.bin' }],
        status: 415,
        code: 'unsupported_file_type',
        detail: messages.invalidFileType,
      },
    ];
    for (const { parts, status, code, detail } of cases) {
      const response = await create(offline, { ...headers, ...sse }, parts);
      expect(response.statusCode, response.body).toBe(status);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json()).toEqual({ code, detail });
    }
    // A body that is no form at all.
    const bare = await offline.app.inject({ method: 'POST', url: '/create', headers: { ...headers, ...sse } });
    expectError(bare, 422, 'empty_input', messages.emptyInput);

    const anonymous = await create(offline, sse, [{ name: 'text', value: biology }]);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('not_authenticated');

    // Out of quota: 402 as JSON, nothing taken.
    await setBillingFields(offline.database.db, user._id, { free_used: 10, quota_period: '2026-11' });
    const broke = await create(offline, { ...headers, ...sse }, [{ name: 'text', value: biology }]);
    expectError(broke, 402, 'insufficient_quota', messages.insufficientQuota);
    expect(await freeUsed(offline, user._id)).toBe(10);
  });
});

describe('POST /create as an event stream, streaming model', () => {
  it('sends the first card while the model is still writing (JSON-schema output)', async () => {
    let finished = false;
    fake.handler = async (request, res) => {
      expect(request.body.stream).toBe(true);
      expect(request.body.response_format?.type).toBe('json_schema');
      await streamCompletion(res, cardsReply('Newton', 5), { piece: 12, delayMs: 15 });
      finished = true;
    };
    const { user, headers } = await signUpAndLogIn(model.app);
    const stream = await openCreateStream(modelUrl, headers, biology);
    expect(stream.status).toBe(200);
    expect(stream.contentType).toBe('text/event-stream; charset=utf-8');
    let finishedAtFirstCard: boolean | null = null;
    const events = await readAll(stream, (event) => {
      if (event.event === 'card' && finishedAtFirstCard === null) finishedAtFirstCard = finished;
    });
    expect(finishedAtFirstCard).toBe(false);
    expect(named(events, 'card')).toHaveLength(5);
    expect(events.at(-1)?.event).toBe('done');
    expect(events.at(-1)?.data.cards).toEqual(named(events, 'card').map((e) => e.data));
    expect(events.at(-1)?.data.cards[0]).toEqual({
      question: 'What does Newton rule 1 say?',
      answer: 'Newton rule 1 says something distinct number 1.',
      // The fake model gives no quote: the card cannot be tied to the text.
      source: { quote: '' },
      verified: false,
    });
    expect(await freeUsed(model, user._id)).toBe(1);
  });

  it('streams the plain-JSON fallback too: prose and a code fence around the JSON', async () => {
    fake.handler = async (request, res) => {
      if (request.body.response_format) {
        sendJson(res, 400, { error: { message: 'response_format json_schema is not supported' } });
        return;
      }
      const reply = `Sure! Here are your cards:\n\`\`\`json\n${cardsReply('Kepler', 3)}\n\`\`\`\nHope this helps.`;
      await streamCompletion(res, reply, { piece: 7, delayMs: 5 });
    };
    const { headers } = await signUpAndLogIn(model.app);
    const response = await create(model, { ...headers, ...sse }, [{ name: 'text', value: biology }]);
    expect(response.statusCode, response.body).toBe(200);
    const { events } = parseEventStream(response.body);
    expect(named(events, 'card').map((e) => e.data.question)).toEqual([
      'What does Kepler rule 1 say?',
      'What does Kepler rule 2 say?',
      'What does Kepler rule 3 say?',
    ]);
    expect(events.at(-1)?.event).toBe('done');
    expect(events.at(-1)?.data.cards).toHaveLength(3);
  });

  it('still works with a server that answers one JSON reply to a streaming request', async () => {
    fake.handler = (_request, res) => sendJson(res, 200, completion(cardsReply('Boyle', 2)));
    const { headers } = await signUpAndLogIn(model.app);
    const response = await create(model, { ...headers, ...sse }, [{ name: 'text', value: biology }]);
    const { events } = parseEventStream(response.body);
    expect(named(events, 'card')).toHaveLength(2);
    expect(events.at(-1)?.data.cards.map((c: { question: string }) => c.question)).toEqual([
      'What does Boyle rule 1 say?',
      'What does Boyle rule 2 say?',
    ]);
  });

  it('streams the cards of parallel chunks as they come; done lists them in source order', async () => {
    // Three chunks asked at once; the model answers the last one first and the first one last, each reply starting
    // once the one before it has ended, so the first chunk's cards come last.
    const names = ['Alpha', 'Beta', 'Gamma'];
    const parts = names.map((name) => `${name} ${'is a topic with many words in it. '.repeat(8)}`);
    const ended = new Map<string, () => void>();
    const replied = new Map(names.map((name) => [name, new Promise<void>((resolve) => ended.set(name, resolve))]));
    const answersAfter: Record<string, string> = { Alpha: 'Beta', Beta: 'Gamma' };
    fake.handler = async (request, res) => {
      const user = request.body.messages[1]?.content ?? '';
      const name = names.find((n) => user.includes(n)) ?? 'Other';
      const before = answersAfter[name];
      if (before) await replied.get(before);
      await streamCompletion(res, cardsReply(name, 2), { piece: 20, delayMs: 5 });
      ended.get(name)?.();
    };
    const parallel = await createTestApp({
      shareWith: model,
      env: {
        AI_PROVIDER: 'openai',
        OPENAI_BASE_URL: fakeUrl,
        AI_MAX_RETRIES: '0',
        AI_CHUNK_CHARS: '300',
        AI_CONCURRENCY: '3',
        FREE_GENERATIONS_PER_MONTH: '50',
      },
    });
    try {
      const { headers } = await signUpAndLogIn(parallel.app);
      const response = await create(parallel, { ...headers, ...sse }, [{ name: 'text', value: parts.join('\n\n') }]);
      const { events } = parseEventStream(response.body);
      const streamed = named(events, 'card').map((e) => e.data.question as string);
      expect(streamed).toHaveLength(6);
      expect(streamed.slice(0, 2).every((q) => q.includes('Gamma'))).toBe(true);
      expect(streamed.slice(4).every((q) => q.includes('Alpha'))).toBe(true);
      const final = events.at(-1);
      expect(final?.event).toBe('done');
      expect(final?.data.cards.map((c: { question: string }) => c.question.split(' ')[2])).toEqual([
        'Alpha',
        'Alpha',
        'Beta',
        'Beta',
        'Gamma',
        'Gamma',
      ]);
      const generating = named(events, 'progress').filter((e) => e.data.stage === 'generating');
      expect(generating.at(-1)?.data.done).toBe(6);
    } finally {
      await parallel.close();
    }
  });

  it('ends with error ai_unavailable (and a refund) when the model fails', async () => {
    fake.handler = (_request, res) => sendJson(res, 500, { error: { message: 'boom secret-key' } });
    const { user, headers } = await signUpAndLogIn(model.app);
    const response = await create(model, { ...headers, ...sse }, [{ name: 'text', value: biology }]);
    const { events } = parseEventStream(response.body);
    expect(events.map((e) => e.event)).toEqual(['progress', 'error']);
    expect(events[1]?.data).toEqual({ detail: serverMessages.aiUnavailable, code: 'ai_unavailable', status: 502 });
    expect(response.body).not.toContain('secret');
    expect(await freeUsed(model, user._id)).toBe(0);
  });

  it('sends keep-alive comments while nothing else is sent', async () => {
    let stream: LiveStream | undefined;
    fake.handler = async (_request, res) => {
      // The model answers only once the client has read two keep-alive comments.
      await waitFor(() => (stream?.comments.length ?? 0) >= 2, 10_000);
      sendJson(res, 200, completion(cardsReply('Hooke', 1)));
    };
    const { headers } = await signUpAndLogIn(model.app);
    stream = await openCreateStream(modelUrl, headers, biology);
    const events = await readAll(stream);
    expect(stream.comments.length).toBeGreaterThanOrEqual(2);
    expect(new Set(stream.comments)).toEqual(new Set(['keep-alive']));
    expect(events.at(-1)?.event).toBe('done');
  });
});

describe('a client that leaves', () => {
  it('before the first card: the model request is aborted within 2 s and the cost refunded', async () => {
    // Thinks for a long time before the first token.
    const { seen, handler } = watchedStream(` ${' '.repeat(400)}${cardsReply('Slow', 3)}`, { piece: 1, delayMs: 20 });
    fake.handler = handler;
    const { user, headers } = await signUpAndLogIn(model.app);
    const stream = await openCreateStream(modelUrl, headers, biology);
    expect((await stream.next())?.event).toBe('progress');
    await waitFor(() => seen.asked, 5000);
    expect(await freeUsed(model, user._id)).toBe(1);
    const from = modelLog.lines.length;
    stream.abort();
    await waitFor(() => seen.gone, 2000);
    expect(await cancelled(from)).toMatchObject({ cardsSent: 0, refunded: true });
    expect(await freeUsed(model, user._id)).toBe(0);
  });

  it('after a card: the model request is aborted and the cost kept', async () => {
    const { seen, handler } = watchedStream(cardsReply('Faraday', 12), { piece: 10, delayMs: 30 });
    fake.handler = handler;
    const { user, headers } = await signUpAndLogIn(model.app);
    const stream = await openCreateStream(modelUrl, headers, biology);
    const event = await nextCard(stream);
    expect(event?.data.question).toBe('What does Faraday rule 1 say?');
    const from = modelLog.lines.length;
    stream.abort();
    await waitFor(() => seen.gone, 2000);
    // Once the service has settled the generation, it has kept the cost.
    expect(await cancelled(from)).toMatchObject({ refunded: false });
    expect(await freeUsed(model, user._id)).toBe(1);
  });

  it('without the header too: leaving aborts the work and refunds', async () => {
    const { seen, handler } = watchedStream(cardsReply('Ohm', 20), { piece: 4, delayMs: 30 });
    fake.handler = handler;
    const { user, headers } = await signUpAndLogIn(model.app);
    const from = modelLog.lines.length;
    await leaveCreate(modelUrl, headers, [{ name: 'text', value: biology }], () => seen.asked, 5000);
    await waitFor(() => seen.gone, 2000);
    expect(await cancelled(from)).toMatchObject({ cardsSent: 0, refunded: true });
    expect(await freeUsed(model, user._id)).toBe(0);
  });
});

// Audit finding 13: the account deleted while its generation runs.
describe('POST /create when the account is deleted while the model writes', () => {
  async function deletedWhileWriting(accept: Record<string, string>) {
    const { user, headers } = await signUpAndLogIn(model.app);
    let deleted = 0;
    fake.handler = async (_request, res) => {
      const response = await deleteAccount(model.app, headers);
      deleted = response.statusCode;
      sendJson(res, 200, completion(cardsReply('Boyle', 2)));
    };
    const response = await create(model, { ...headers, ...accept }, [{ name: 'text', value: biology }]);
    expect(deleted).toBe(204);
    const users = await model.database.db.selectFrom('users').select('id').where('id', '=', user._id).execute();
    expect(users).toEqual([]);
    return response;
  }

  it('ends the stream with error not_authenticated (401), never done', async () => {
    const response = await deletedWhileWriting(sse);
    expect(response.statusCode).toBe(200);
    const { events } = parseEventStream(response.body);
    expect(named(events, 'done')).toEqual([]);
    expect(events.at(-1)).toEqual({
      event: 'error',
      data: { detail: serverMessages.notAuthenticated, code: 'not_authenticated', status: 401 },
    });
  });

  it('answers the JSON caller 401 not_authenticated', async () => {
    const response = await deletedWhileWriting({});
    expectError(response, 401, 'not_authenticated', serverMessages.notAuthenticated);
  });
});
