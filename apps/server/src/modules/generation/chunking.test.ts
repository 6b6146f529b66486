import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpAndLogIn } from '../../../test/support/factories';
import { completion, FakeChatServer, sendJson } from '../../../test/support/fake-chat-server';
import { multipartBody } from '../../../test/support/multipart';
import { createTestApp, type TestContext } from '../../../test/support/test-app';
import { waitFor } from '../../../test/support/wait-for';
import { limitPassages } from '../../adapters/extract/extracted';
import { chunkPassages, mapWithConcurrency } from './chunking';

describe('chunkPassages', () => {
  it('packs paragraphs in order up to the size, splits long ones at sentences, and keeps their sources', () => {
    const passages = [
      { text: 'Alpha one. Alpha two.\n\nAlpha three.', page: 1 },
      { text: 'Beta one is a much longer sentence. Beta two.', page: 2 },
    ];
    expect(chunkPassages(passages, 40)).toEqual([
      { text: 'Alpha one. Alpha two.\n\nAlpha three.', passages: [passages[0]] },
      { text: 'Beta one is a much longer sentence.', passages: [passages[1]] },
      { text: 'Beta two.', passages: [passages[1]] },
    ]);
    expect(chunkPassages(passages, 1000)).toEqual([{ text: `${passages[0]?.text}\n\n${passages[1]?.text}`, passages }]);
  });

  it('limitPassages keeps the leading text up to the limit', () => {
    expect(
      limitPassages(
        [
          { text: 'abcdef', page: 1 },
          { text: 'ghij', page: 2 },
          { text: 'kl', page: 3 },
        ],
        8,
      ),
    ).toEqual([
      { text: 'abcdef', page: 1 },
      { text: 'gh', page: 2 },
    ]);
  });

  it('mapWithConcurrency keeps order and never runs more than the limit at once', async () => {
    let peak = 0;
    const running: { n: number; finish: () => void }[] = [];
    const mapping = mapWithConcurrency([5, 1, 4, 2, 3], 2, (n) => {
      const result = new Promise<number>((resolve) => {
        running.push({ n, finish: () => resolve(n * 10) });
      });
      peak = Math.max(peak, running.length);
      return result;
    });
    // Each time the limit's worth is running, the one started last finishes first: out of input order.
    const finished: number[] = [];
    for (let left = 5; left > 0; left--) {
      await waitFor(() => running.length === Math.min(2, left), 5_000);
      const last = running.pop();
      finished.push(last?.n ?? 0);
      last?.finish();
    }
    expect(await mapping).toEqual([50, 10, 40, 20, 30]);
    expect(finished).not.toEqual([5, 1, 4, 2, 3]);
    expect(peak).toBe(2);
  });
});

describe('long inputs through POST /create', () => {
  let fake: FakeChatServer;
  let ctx: TestContext;
  let inFlight = 0;
  let peak = 0;

  beforeAll(async () => {
    fake = new FakeChatServer();
    const baseUrl = await fake.start();
    ctx = await createTestApp({
      env: {
        AI_PROVIDER: 'openai',
        OPENAI_BASE_URL: baseUrl,
        AI_CHUNK_CHARS: '200',
        AI_CONCURRENCY: '2',
        MAX_CARDS_PER_GENERATION: '7',
      },
    });
  });
  afterAll(async () => {
    await ctx.close();
    await fake.stop();
  });

  it('generates per chunk with bounded parallelism, merges in source order, drops duplicates, caps the total', async () => {
    // Each request waits until a second one is in flight, then the later of the two answers first (so completion
    // order differs from source order); the last chunk (topic 12) lets every waiting request answer, newest first.
    const waiting: (() => void)[] = [];
    fake.handler = async (request, res) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      const material = request.body.messages[1]?.content ?? '';
      const topics = [...material.matchAll(/Topic (\d+)/g)].map((m) => Number(m[1]));
      const answer = new Promise<void>((resolve) => waiting.push(resolve));
      if (topics.includes(12)) while (waiting.length > 0) waiting.pop()?.();
      else if (waiting.length === 2) waiting.pop()?.();
      await answer;
      inFlight--;
      const cards = topics.flatMap((n) => [
        { question: `What is topic ${n} about?`, answer: `Subject number ${n}` },
        // The same card from every chunk: a duplicate to drop.
        { question: 'What is this text about?', answer: 'Numbered topics' },
      ]);
      sendJson(res, 200, completion(JSON.stringify({ cards })));
    };
    const text = Array.from({ length: 12 }, (_, i) => `Topic ${i + 1} is about subject number ${i + 1}.`).join('\n\n');
    const { headers } = await signUpAndLogIn(ctx.app);
    const body = multipartBody([{ name: 'file', value: Buffer.from(text), filename: 'topics.txt' }]);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/create',
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(peak).toBe(2);
    // Three chunks of about 200 characters (topics 1-5, 6-10, 11-12); each may give its share of the 7 cards (3).
    expect(fake.requests).toHaveLength(3);
    const questions = response.json<{ cards: { question: string }[] }>().cards.map((c) => c.question);
    expect(questions).toEqual([
      'What is topic 1 about?',
      'What is this text about?',
      'What is topic 2 about?',
      'What is topic 6 about?',
      'What is topic 7 about?',
      'What is topic 11 about?',
      'What is topic 12 about?',
    ]);
  });
});
