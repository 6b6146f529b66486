// Time to the first card for a 25-card text, against a local OpenAI-compatible model that writes 50 tokens a
// second (about 4 characters a token) after a 300 ms first-token delay: POST /create as an event stream, beside
// the JSON reply's total time. Then the same through the Redis queue (GENERATION_QUEUE=redis) with one
// `npm run worker` process. The API server and the worker are separate processes started as in production;
// this process is the model and the client.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { overHttp, signUpAndLogIn } from './support/accounts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tokensPerSecond = 50;
const charsPerToken = 4;
const firstTokenMs = 300;
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

// The model: one card per sentence of the material, streamed when asked to stream, else one reply at the end.
const model = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const request = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const user: string = request.messages[1].content;
  const sentences = user.split(/(?<=\.)\s+/).filter((s) => s.length > 20);
  const content = JSON.stringify({
    cards: sentences.map((s, i) => ({ question: `What does sentence ${i + 1} say about its topic?`, answer: s })),
  });
  await write(res, content, Boolean(request.stream));
});

async function write(res: ServerResponse, content: string, stream: boolean) {
  let gone = false;
  res.once('close', () => {
    gone = !res.writableFinished;
  });
  await sleep(firstTokenMs);
  const tokens = Math.ceil(content.length / charsPerToken);
  if (!stream) {
    await sleep((tokens * 1000) / tokensPerSecond);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'bench',
        object: 'chat.completion',
        created: 0,
        model: 'bench',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 100, completion_tokens: tokens },
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const piece = charsPerToken * 5; // five tokens per event, every 100 ms
  for (let at = 0; at < content.length && !gone; at += piece) {
    const delta = { content: content.slice(at, at + piece) };
    res.write(
      `data: ${JSON.stringify({ id: 'bench', object: 'chat.completion.chunk', choices: [{ index: 0, delta }] })}\n\n`,
    );
    await sleep((5 * 1000) / tokensPerSecond);
  }
  res.end('data: [DONE]\n\n');
}

await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
const modelUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;

const topics = ['cell', 'river', 'market', 'planet', 'engine'];
const text = Array.from(
  { length: 25 },
  (_, i) => `Topic ${i + 1} explains how the ${topics[i % 5]} number ${i + 1} changes when conditions shift.`,
).join(' ');

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const children: ChildProcess[] = [];

function start(args: string[], env: Record<string, string>, readyLine: RegExp): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (data: Buffer) => {
      out += data.toString('utf8');
      if (readyLine.test(out)) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

async function apiServer(env: Record<string, string>) {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'flashcards-bench-'));
  const child = await start(
    ['apps/server/src/server.ts'],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      AI_PROVIDER: 'openai',
      OPENAI_BASE_URL: modelUrl,
      AI_MODEL: 'bench',
      FREE_GENERATIONS_PER_MONTH: '100',
      ...env,
    },
    /serving http/,
  );
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function token(url: string): Promise<string> {
  const email = `bench-${randomBytes(4).toString('hex')}@example.com`;
  return signUpAndLogIn(overHttp(url), email, 'bench password 123');
}

function form() {
  const data = new FormData();
  data.append('text', text);
  return data;
}

async function streamed(url: string, bearer: string) {
  const started = performance.now();
  const response = await fetch(`${url}/create`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, accept: 'text/event-stream' },
    body: form(),
  });
  if (!response.ok || !response.body) throw new Error(`stream: ${response.status} ${await response.text()}`);
  const decoder = new TextDecoder();
  let buffer = '';
  let firstCard = 0;
  let cards = 0;
  const reader = response.body.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    buffer += decoder.decode(chunk.value, { stream: true });
    if (!firstCard && buffer.includes('event: card\n')) firstCard = performance.now() - started;
    if (buffer.includes('event: error\n')) throw new Error(`stream ended with ${buffer}`);
  }
  const done = /event: done\ndata: (.*)\n/.exec(buffer)?.[1];
  if (done) cards = (JSON.parse(done) as { cards: unknown[] }).cards.length;
  return { firstCard: firstCard / 1000, total: (performance.now() - started) / 1000, cards };
}

async function json(url: string, bearer: string) {
  const started = performance.now();
  const response = await fetch(`${url}/create`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}` },
    body: form(),
  });
  const body = (await response.json()) as { cards?: unknown[] };
  if (!response.ok) throw new Error(`json: ${response.status} ${JSON.stringify(body)}`);
  return { total: (performance.now() - started) / 1000, cards: body.cards?.length ?? 0 };
}

function report(label: string, stream: Awaited<ReturnType<typeof streamed>>, whole: Awaited<ReturnType<typeof json>>) {
  console.log(`${label}:`);
  console.log(
    `  event stream: first card after ${stream.firstCard.toFixed(2)} s, done after ${stream.total.toFixed(2)} s (${stream.cards} cards)`,
  );
  console.log(`  JSON reply:   ${whole.total.toFixed(2)} s for all ${whole.cards} cards`);
}

console.log(
  `25 sentences (${text.length} characters); local model: first token after ${firstTokenMs} ms, then ${tokensPerSecond} tokens/s`,
);
try {
  const api = await apiServer({});
  try {
    const bearer = await token(api.url);
    report('in process (default)', await streamed(api.url, bearer), await json(api.url, bearer));
  } finally {
    await api.stop();
  }

  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  const reachable = await redis.connect().then(
    () => true,
    () => false,
  );
  redis.disconnect();
  if (!reachable) {
    console.log(`through the Redis queue: not measured (no Redis at ${redisUrl}; set REDIS_URL)`);
  } else {
    const queueEnv = {
      REDIS_URL: redisUrl,
      GENERATION_QUEUE: 'redis',
      GENERATION_QUEUE_NAME: `bench-${randomBytes(4).toString('hex')}`,
    };
    await start(
      ['apps/server/src/worker.ts'],
      { ...queueEnv, AI_PROVIDER: 'openai', OPENAI_BASE_URL: modelUrl, AI_MODEL: 'bench' },
      /generation worker ready/,
    );
    const queued = await apiServer(queueEnv);
    try {
      const bearer = await token(queued.url);
      report(
        'through the Redis queue, one worker process',
        await streamed(queued.url, bearer),
        await json(queued.url, bearer),
      );
    } finally {
      await queued.stop();
      const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
      const queue = new Queue(queueEnv.GENERATION_QUEUE_NAME, { connection });
      await queue.obliterate({ force: true }).catch(() => {});
      await queue.close();
      connection.disconnect();
    }
  }
} finally {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  model.closeAllConnections();
  model.close();
}
