import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake server received: the parsed chat-completions body. */
export interface ChatRequest {
  path: string;
  authorization: string | undefined;
  body: {
    model: string;
    stream?: boolean;
    messages: { role: string; content: string }[];
    response_format?: { type: string; json_schema?: { name: string; strict?: boolean; schema: unknown } };
  };
}

export type ChatHandler = (request: ChatRequest, res: ServerResponse) => void | Promise<void>;

/** A chat-completions reply with `content` as the assistant's message. */
export function completion(content: string, usage = { prompt_tokens: 100, completion_tokens: 50 }) {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'test-model',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

export interface StreamOptions {
  /** Characters of `content` per event. */
  piece?: number;
  /** Pause before each event. */
  delayMs?: number;
  /** Told when the client went away mid-stream (the request was aborted). */
  onClientGone?: () => void;
}

/**
 * Sends `content` as a streamed chat completion (`stream: true`): server-sent events of `delta.content` pieces,
 * then one with usage and `[DONE]`, pausing between events like a model writing. Stops when the client leaves.
 */
export async function streamCompletion(res: ServerResponse, content: string, options: StreamOptions = {}) {
  const piece = options.piece ?? 16;
  let gone = false;
  res.once('close', () => {
    if (!res.writableFinished) {
      gone = true;
      options.onClientGone?.();
    }
  });
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const event = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({
      id: 'chatcmpl-test',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'test-model',
      choices: [{ index: 0, delta, finish_reason: null }],
      ...extra,
    })}\n\n`;
  res.write(event({ role: 'assistant', content: '' }));
  for (let at = 0; at < content.length; at += piece) {
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    if (gone) return;
    res.write(event({ content: content.slice(at, at + piece) }));
  }
  if (gone) return;
  res.write(
    `data: ${JSON.stringify({
      id: 'chatcmpl-test',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'test-model',
      choices: [],
      usage: { prompt_tokens: 100, completion_tokens: Math.ceil(content.length / 4), total_tokens: 0 },
    })}\n\n`,
  );
  res.end('data: [DONE]\n\n');
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A model reply of `count` cards, each about one rule of `prefix`, as the JSON schema asks. */
export function cardsReply(prefix: string, count: number): string {
  return JSON.stringify({
    cards: Array.from({ length: count }, (_, i) => ({
      question: `What does ${prefix} rule ${i + 1} say?`,
      answer: `${prefix} rule ${i + 1} says something distinct number ${i + 1}.`,
    })),
  });
}

/**
 * A handler that streams `content` (see streamCompletion) and notes in `seen` that the model was asked and that the
 * client went away mid-stream.
 */
export function watchedStream(content: string, options: Omit<StreamOptions, 'onClientGone'>) {
  const seen = { asked: false, gone: false };
  const handler: ChatHandler = async (_request, res) => {
    seen.asked = true;
    await streamCompletion(res, content, {
      ...options,
      onClientGone: () => {
        seen.gone = true;
      },
    });
  };
  return { seen, handler };
}

/**
 * A real HTTP server on loopback that speaks the OpenAI chat-completions protocol (POST /v1/chat/completions).
 * Each request goes to `handler`, which tests swap as they go; every request is recorded.
 */
export class FakeChatServer {
  readonly requests: ChatRequest[] = [];
  handler: ChatHandler = (_request, res) => sendJson(res, 200, completion('{"cards":[]}'));
  private server: Server | undefined;
  private baseUrl: string | undefined;

  /** The `/v1` base address to give an app, once started. */
  get url(): string {
    if (!this.baseUrl) throw new Error('the fake chat server is not started');
    return this.baseUrl;
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.baseUrl = `http://127.0.0.1:${port}/v1`;
    return this.baseUrl;
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      sendJson(res, 404, { error: { message: 'not found' } });
      return;
    }
    const request: ChatRequest = {
      path: req.url,
      authorization: req.headers.authorization,
      body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
    };
    this.requests.push(request);
    try {
      await this.handler(request, res);
    } catch {
      if (!res.headersSent) sendJson(res, 500, { error: { message: 'handler failed' } });
    }
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}
