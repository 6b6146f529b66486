/**
 * GENERATION_QUEUE=redis end to end: one API server (this process, listening on loopback) and two `npm run worker`
 * processes on a queue of their own in the Redis of REDIS_URL, against a slow streaming local model. A generation
 * streams through the queue; a JSON client waits for the result; a client that leaves stops the worker's model
 * request; SIGKILL of the worker holding a job still ends the request within the deadline.
 * Runs only where REDIS_URL is set (see vitest.config.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GenerateResponse } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueConnection } from '../src/modules/generation/generation-queue';
import { nextCard, openCreateStream, readAll } from './support/event-stream';
import { signUpAndLogIn } from './support/factories';
import { cardsReply, FakeChatServer, streamCompletion, watchedStream } from './support/fake-chat-server';
import { biology, freeUsed as freeUsedIn, leaveCreate } from './support/generation';
import { multipartBody } from './support/multipart';
import { createTestApp, type TestContext } from './support/test-app';
import { waitFor } from './support/wait-for';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const redisUrl = process.env.REDIS_URL ?? '';
const queueName = `test-${randomBytes(6).toString('hex')}`;
const deadlineSeconds = 40;

interface WorkerProcess {
  child: ChildProcess;
  /** The worker's own process id (npm and its shell stand between it and `child`). */
  pid: number;
  /** Log lines, parsed. */
  lines: Record<string, unknown>[];
}

const fake = new FakeChatServer();
let api: TestContext;
let apiUrl: string;
const workers: WorkerProcess[] = [];

async function startWorker(modelUrl: string): Promise<WorkerProcess> {
  const child = spawn('npm', ['run', '--silent', 'worker'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATABASE_URL: '',
      REDIS_URL: redisUrl,
      GENERATION_QUEUE: 'redis',
      GENERATION_QUEUE_NAME: queueName,
      AI_PROVIDER: 'openai',
      OPENAI_BASE_URL: modelUrl,
      AI_MODEL: 'test-model',
      AI_MAX_RETRIES: '0',
      AI_TIMEOUT: `${deadlineSeconds}s`,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  const worker: WorkerProcess = { child, pid: 0, lines: [] };
  let buffered = '';
  child.stdout?.on('data', (data: Buffer) => {
    buffered += data.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      try {
        worker.lines.push(JSON.parse(line));
      } catch {
        // npm's own output
      }
    }
  });
  const ready = await waitFor(() => worker.lines.find((line) => line.msg === 'generation worker ready'), 60_000);
  worker.pid = Number(ready.pid);
  return worker;
}

const jobStarts = (worker: WorkerProcess) => worker.lines.filter((line) => line.msg === 'generation job started');

const freeUsed = (userId: string) => freeUsedIn(api.database, userId);

beforeAll(async () => {
  const modelUrl = await fake.start();
  api = await createTestApp({
    env: {
      REDIS_URL: redisUrl,
      GENERATION_QUEUE: 'redis',
      GENERATION_QUEUE_NAME: queueName,
      AI_TIMEOUT: `${deadlineSeconds}s`,
      FREE_GENERATIONS_PER_MONTH: '50',
    },
  });
  apiUrl = await api.app.listen({ port: 0, host: '127.0.0.1' });
  workers.push(...(await Promise.all([startWorker(modelUrl), startWorker(modelUrl)])));
}, 120_000);

afterAll(async () => {
  for (const worker of workers) {
    try {
      if (worker.child.pid) process.kill(-worker.child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  api.app.server.closeAllConnections();
  await api.close();
  await fake.stop();
  // Leave nothing of this run's queues in the shared Redis.
  for (const name of [queueName, `${queueName}-nobody`]) {
    const connection = queueConnection(redisUrl);
    const queue = new Queue(name, { connection });
    await queue.obliterate({ force: true });
    await queue.close();
    connection.disconnect();
  }
});

/** Jobs of the queue, in any state, that still carry an upload in their data. */
async function jobsHoldingUploads(name = queueName): Promise<number> {
  const connection = queueConnection(redisUrl);
  const queue = new Queue(name, { connection });
  try {
    const jobs = await queue.getJobs(['completed', 'failed', 'waiting', 'active', 'delayed', 'prioritized']);
    return jobs.filter((job) => job?.data?.file).length;
  } finally {
    await queue.close();
    connection.disconnect();
  }
}

describe('generation through the Redis queue', () => {
  it('streams progress and cards from a worker process, then done; the cost is taken by the API server', async () => {
    let finished = false;
    fake.handler = async (_request, res) => {
      await streamCompletion(res, cardsReply('Queue', 4), { piece: 10, delayMs: 20 });
      finished = true;
    };
    const { user, headers } = await signUpAndLogIn(api.app);
    const stream = await openCreateStream(apiUrl, headers, biology);
    expect(stream.status).toBe(200);
    let finishedAtFirstCard: boolean | null = null;
    const events = await readAll(stream, (event) => {
      if (event.event === 'card' && finishedAtFirstCard === null) finishedAtFirstCard = finished;
    });
    expect(finishedAtFirstCard).toBe(false);
    expect(events[0]).toEqual({ event: 'progress', data: { stage: 'generating', done: 0, total: 40 } });
    const cards = events.filter((e) => e.event === 'card').map((e) => e.data);
    expect(cards).toHaveLength(4);
    expect(events.at(-1)).toEqual({ event: 'done', data: { cards, cost: 1, remaining: 49 } });
    expect(await freeUsed(user._id)).toBe(1);
    expect(workers.reduce((sum, worker) => sum + jobStarts(worker).length, 0)).toBe(1);
  });

  it('answers a JSON client with the result once the worker is done; an uploaded file travels with the job', async () => {
    let material = '';
    fake.handler = (request, res) => {
      material = request.body.messages[1]?.content ?? '';
      return streamCompletion(res, cardsReply('Json', 2), { piece: 40, delayMs: 5 });
    };
    const { headers } = await signUpAndLogIn(api.app);
    const body = multipartBody([
      { name: 'file', value: Buffer.from(`Notes from the file.\n\n${biology}`), filename: 'notes.txt' },
    ]);
    const response = await fetch(`${apiUrl}/create`, {
      method: 'POST',
      headers: { ...headers, ...body.headers },
      body: new Uint8Array(body.payload),
    });
    expect(response.status).toBe(200);
    const json = (await response.json()) as { cards: { question: string }[]; cost: number; remaining: number };
    expect(json.cards.map((card) => card.question)).toEqual([
      'What does Json rule 1 say?',
      'What does Json rule 2 say?',
    ]);
    expect(json.cost).toBe(3);
    expect(json.remaining).toBe(47);
    expect(material).toContain('Notes from the file.');
  });

  it('figures travel with the job: a card quoted from a slide carries that slide’s pictures, served to its user', async () => {
    fake.handler = (_request, res) =>
      streamCompletion(
        res,
        JSON.stringify({
          cards: [
            {
              question: 'What does the heart do?',
              answer: 'It pumps blood through the body.',
              quote: 'The heart pumps blood through the body.',
            },
          ],
        }),
        { piece: 40, delayMs: 5 },
      );
    const { headers } = await signUpAndLogIn(api.app);
    const slides = readFileSync(path.join(repoRoot, 'apps/server/test/fixtures/figures/slides.pptx'));
    const body = multipartBody([{ name: 'file', value: slides, filename: 'organs.pptx' }]);
    const response = await fetch(`${apiUrl}/create`, {
      method: 'POST',
      headers: { ...headers, ...body.headers },
      body: new Uint8Array(body.payload),
    });
    expect(response.status).toBe(200);
    const { cards } = (await response.json()) as GenerateResponse;
    expect(cards).toHaveLength(1);
    expect(cards[0]?.source).toMatchObject({ document: 'organs.pptx', slide: 1 });
    expect(cards[0]?.images).toHaveLength(2);
    for (const url of cards[0]?.images ?? []) {
      const image = await fetch(`${apiUrl}${url}`, { headers });
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toMatch(/^image\/(jpeg|png)$/);
    }
  });

  it('the card style travels with the job: the worker asks the model for cloze notes and relays them', async () => {
    const note = { text: '{{c1::Mitochondria}} release energy from {{c2::glucose}}.' };
    let schema: unknown;
    fake.handler = (request, res) => {
      schema = request.body.response_format?.json_schema?.schema;
      return streamCompletion(res, JSON.stringify({ cards: [note] }), { piece: 10 });
    };
    const { headers } = await signUpAndLogIn(api.app);
    const body = multipartBody([
      { name: 'text', value: biology },
      { name: 'card_style', value: 'cloze' },
    ]);
    const response = await fetch(`${apiUrl}/create`, {
      method: 'POST',
      headers: { ...headers, ...body.headers },
      body: new Uint8Array(body.payload),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { cards: unknown[] }).cards).toEqual([
      {
        type: 'cloze',
        fields: note,
        question: '[...] release energy from glucose.',
        answer: '**Mitochondria** release energy from glucose.',
        // The model gave no quote: the card cannot be tied to the text.
        source: { quote: '' },
        verified: false,
      },
    ]);
    expect(schema).toMatchObject({ properties: { cards: { items: { required: ['text', 'quote'] } } } });
  });

  it('drops every upload from Redis once its job ends: answered, refused as unreadable, or left by its client (audit t-queue-retention)', async () => {
    fake.handler = (_request, res) => streamCompletion(res, cardsReply('Kept', 1), { piece: 40, delayMs: 5 });
    const { headers } = await signUpAndLogIn(api.app);
    const post = (file: Buffer, filename: string) => {
      const body = multipartBody([{ name: 'file', value: file, filename }]);
      return fetch(`${apiUrl}/create`, {
        method: 'POST',
        headers: { ...headers, ...body.headers },
        body: new Uint8Array(body.payload),
      });
    };
    const answered = await post(Buffer.from(`Notes.\n\n${biology}`), 'notes.txt');
    expect(answered.status).toBe(200);
    const broken = await post(Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(200_000)]), 'broken.pdf');
    expect(broken.status).toBe(422);
    expect(((await broken.json()) as { code: string }).code).toBe('file_unreadable');
    expect(await jobsHoldingUploads()).toBe(0);

    const { seen, handler } = watchedStream(` ${' '.repeat(500)}${cardsReply('Left', 3)}`, { piece: 1, delayMs: 20 });
    fake.handler = handler;
    const notes = Buffer.from(`Notes.\n\n${biology}`);
    await leaveCreate(
      apiUrl,
      headers,
      [{ name: 'file', value: notes, filename: 'notes.txt' }],
      () => seen.asked,
      10_000,
    );
    await waitFor(() => seen.gone, 5_000);
    await waitFor(async () => (await jobsHoldingUploads()) === 0, 10_000);
  }, 60_000);

  it('a client that leaves before the first card stops the worker’s model request and is refunded', async () => {
    const { seen, handler } = watchedStream(` ${' '.repeat(500)}${cardsReply('Left', 3)}`, { piece: 1, delayMs: 20 });
    fake.handler = handler;
    const { user, headers } = await signUpAndLogIn(api.app);
    const stream = await openCreateStream(apiUrl, headers, biology);
    await waitFor(() => seen.asked, 10_000);
    stream.abort();
    const started = Date.now();
    await waitFor(() => seen.gone, 2_000);
    expect(Date.now() - started).toBeLessThan(2_000);
    await waitFor(async () => (await freeUsed(user._id)) === 0, 2_000);
  });

  it('SIGKILL of the worker holding the job: another worker takes it, and the request still ends with done', async () => {
    const started = Date.now();
    fake.handler = async (_request, res) => {
      await streamCompletion(res, cardsReply('Kill', 6), { piece: 8, delayMs: 40 });
    };
    const { user, headers } = await signUpAndLogIn(api.app);
    const before = workers.map((worker) => jobStarts(worker).length);
    const stream = await openCreateStream(apiUrl, headers, biology);
    const event = await nextCard(stream);
    expect(event?.data.question).toBe('What does Kill rule 1 say?');

    const holder = workers.find((worker, i) => jobStarts(worker).length > (before[i] ?? 0));
    const other = workers.find((worker) => worker !== holder);
    if (!holder || !other) throw new Error('no worker took the job');
    process.kill(holder.pid, 'SIGKILL');

    const rest = await readAll(stream);
    const seconds = (Date.now() - started) / 1000;
    expect(seconds).toBeLessThan(deadlineSeconds);
    const last = rest.at(-1);
    expect(last?.event).toBe('done');
    expect(last?.data.cards.map((card: { question: string }) => card.question)).toEqual(
      Array.from({ length: 6 }, (_, i) => `What does Kill rule ${i + 1} say?`),
    );
    // The retry wrote the first card again; the client was not told twice.
    const streamed = [event?.data.question, ...rest.filter((e) => e.event === 'card').map((e) => e.data.question)];
    expect(new Set(streamed).size).toBe(streamed.length);
    expect(jobStarts(other).at(-1)?.jobId).toBe(jobStarts(holder).at(-1)?.jobId);
    expect(await freeUsed(user._id)).toBe(1);
  }, 60_000);

  it('a job no worker takes ends at its deadline with ai_timeout, and the cost is refunded', async () => {
    const lonely = await createTestApp({
      shareWith: api,
      env: {
        REDIS_URL: redisUrl,
        GENERATION_QUEUE: 'redis',
        GENERATION_QUEUE_NAME: `${queueName}-nobody`,
        AI_TIMEOUT: '1s',
        FREE_GENERATIONS_PER_MONTH: '50',
      },
    });
    try {
      const { user, headers } = await signUpAndLogIn(lonely.app);
      const body = multipartBody([{ name: 'text', value: biology }]);
      const started = Date.now();
      const response = await lonely.app.inject({
        method: 'POST',
        url: '/create',
        headers: { ...headers, ...body.headers, accept: 'text/event-stream' },
        payload: body.payload,
      });
      // The deadline (1 s) and the API server's grace for the worker's own answer (5 s).
      expect(Date.now() - started).toBeLessThan(8_000);
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(
        `event: error\ndata: ${JSON.stringify({ detail: messages.generationTimeout, code: 'ai_timeout', status: 504 })}\n\n`,
      );
      expect(await freeUsed(user._id)).toBe(0);
    } finally {
      await lonely.close();
    }
  }, 20_000);
});
