// A 30,000-character document through POST /create against a local fake OpenAI-compatible provider that answers
// after 1 s and then sends its reply at 60 tokens a second: chunked parallel generation (the default settings)
// against one sequential call over the whole text. Prints both times and their ratio.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { multipartBody } from '../apps/server/test/support/multipart';
import { createTestApp } from '../apps/server/test/support/test-app';
import { inProcess, signUpAndLogIn } from './support/accounts';

const firstByteMs = 1000;
const tokensPerSecond = 60;
const charsPerToken = 4;

/** Writes `body` at the provider's speed, after its first-byte delay. */
async function trickle(res: ServerResponse, body: string) {
  await sleep(firstByteMs);
  res.writeHead(200, { 'content-type': 'application/json' });
  const piece = charsPerToken * 6; // six tokens per write, every 100 ms
  for (let at = 0; at < body.length; at += piece) {
    res.write(body.slice(at, at + piece));
    await sleep((1000 * 6) / tokensPerSecond);
  }
  res.end();
}

const server = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const request = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const system: string = request.messages[0].content;
  const user: string = request.messages[1].content;
  const wanted = Number(/at most (\d+) cards/.exec(system)?.[1] ?? 10);
  // One card per sentence of the material, up to what was asked: about 25 tokens a card.
  const sentences = user.split(/(?<=\.)\s+/).filter((s) => s.length > 20);
  const cards = sentences.slice(0, wanted).map((s) => ({
    question: `What does topic ${/Topic (\d+)/.exec(s)?.[1] ?? '?'} describe?`,
    answer: s.slice(0, 80),
  }));
  const content = JSON.stringify({ cards });
  const body = JSON.stringify({
    id: 'bench',
    object: 'chat.completion',
    created: 0,
    model: request.model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: Math.ceil(user.length / 4), completion_tokens: Math.ceil(content.length / 4) },
  });
  await trickle(res, body);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;

const sentence = (i: number) =>
  `Topic ${i} describes how the ${['cell', 'river', 'market', 'planet', 'engine'][i % 5]} number ${i} changes over time under steady conditions.`;
let document = '';
for (let i = 1; document.length < 30_000; i++) document += `${sentence(i)} ${i % 6 === 0 ? '\n\n' : ''}`;
document = document.slice(0, 30_000);

async function run(label: string, env: Record<string, string>) {
  const ctx = await createTestApp({
    env: {
      AI_PROVIDER: 'openai',
      OPENAI_BASE_URL: baseUrl,
      AI_MODEL: 'bench',
      FREE_GENERATIONS_PER_MONTH: '100',
      ...env,
    },
  });
  try {
    const token = await signUpAndLogIn(inProcess(ctx.app), 'bench@example.com', 'bench password 123');
    const body = multipartBody([{ name: 'file', value: Buffer.from(document), filename: 'notes.txt' }]);
    const started = performance.now();
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/create',
      headers: { authorization: `Bearer ${token}`, ...body.headers },
      payload: body.payload,
    });
    const seconds = (performance.now() - started) / 1000;
    if (response.statusCode !== 200) throw new Error(`${label}: ${response.statusCode} ${response.body}`);
    const cards = response.json<{ cards: unknown[] }>().cards.length;
    console.log(`${label}: ${seconds.toFixed(2)} s, ${cards} cards`);
    return seconds;
  } finally {
    await ctx.close();
  }
}

console.log(
  `30,000-character document; fake provider: first byte after ${firstByteMs} ms, then ${tokensPerSecond} tokens/s`,
);
const chunked = await run('chunked, parallel (AI_CHUNK_CHARS=6000, AI_CONCURRENCY=4)', {
  AI_CHUNK_CHARS: '6000',
  AI_CONCURRENCY: '4',
});
const sequential = await run('one sequential call (AI_CHUNK_CHARS=30000)', {
  AI_CHUNK_CHARS: '30000',
  AI_CONCURRENCY: '1',
});
console.log(`sequential / chunked = ${(sequential / chunked).toFixed(2)}x faster with chunked parallel generation`);
server.closeAllConnections();
server.close();
