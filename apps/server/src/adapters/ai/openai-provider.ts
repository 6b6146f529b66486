import type { CardStyle } from '@flashcards/shared/api-types';
import OpenAI, { APIConnectionTimeoutError, APIError, APIUserAbortError, BadRequestError } from 'openai';
import { Stream } from 'openai/streaming';
import {
  type AiProvider,
  AiTimeoutError,
  AiUnavailableError,
  type AnswerJudgement,
  type CardDraft,
  type ProviderResult,
  type TokenUsage,
  validCards,
} from './ai-provider';
import { createCardStream } from './card-stream';
import {
  cardsPrompt,
  cardsSchemaFor,
  distractorsPrompt,
  distractorsSchema,
  judgementSchema,
  judgePrompt,
  quizPrompt,
  quizSchema,
} from './prompts';

export interface OpenAiProviderOptions {
  /** Any OpenAI-compatible server: OpenAI, Ollama, vLLM, llama.cpp's server, LM Studio, OpenRouter… */
  baseUrl: string | undefined;
  apiKey: string | undefined;
  model: string;
  /** Retries on 429 and 5xx, with exponential backoff (and the server's Retry-After when it sends one). */
  maxRetries: number;
  /** Per HTTP request; the caller's signal carries the overall deadline. */
  requestTimeoutMs: number;
}

/**
 * Extracts the cards from a model's reply: JSON as asked, or JSON somewhere in plain text (in a code fence or
 * between the first brace and the last) from servers that ignore structured output. Null when there is none.
 */
export function parseCardsReply(content: string | null | undefined): unknown[] | null {
  if (!content) return null;
  const candidates = [content.trim()];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(content);
  if (fenced?.[1]) candidates.push(fenced[1].trim());
  const firstBrace = content.indexOf('{');
  const lastBrace = content.lastIndexOf('}');
  if (firstBrace >= 0 && lastBrace > firstBrace) candidates.push(content.slice(firstBrace, lastBrace + 1));
  const firstBracket = content.indexOf('[');
  const lastBracket = content.lastIndexOf(']');
  if (firstBracket >= 0 && lastBracket > firstBracket) candidates.push(content.slice(firstBracket, lastBracket + 1));
  for (const candidate of candidates) {
    try {
      const parsed: unknown = JSON.parse(candidate);
      if (Array.isArray(parsed)) return parsed;
      if (parsed && typeof parsed === 'object') {
        const cards = (parsed as Record<string, unknown>).cards ?? (parsed as Record<string, unknown>).flashcards;
        if (Array.isArray(cards)) return cards;
      }
    } catch {
      // try the next candidate
    }
  }
  return null;
}

const verdicts = new Set(['correct', 'close', 'wrong']);

/** A judged answer from a model's reply (JSON, or JSON within text), or null when it holds none. */
export function parseJudgementReply(content: string | null | undefined): AnswerJudgement | null {
  if (!content) return null;
  const firstBrace = content.indexOf('{');
  const lastBrace = content.lastIndexOf('}');
  if (firstBrace < 0 || lastBrace < firstBrace) return null;
  try {
    const parsed = JSON.parse(content.slice(firstBrace, lastBrace + 1)) as Record<string, unknown>;
    if (typeof parsed.verdict !== 'string' || !verdicts.has(parsed.verdict)) return null;
    const explanation = typeof parsed.explanation === 'string' ? parsed.explanation : '';
    // One line, of a length a screen shows.
    const line = explanation.split(/\r?\n/)[0]?.trim().slice(0, 200) ?? '';
    return { verdict: parsed.verdict as AnswerJudgement['verdict'], explanation: line };
  } catch {
    return null;
  }
}

/** Written distractors from a model's reply (JSON, or JSON within text): one list of strings per item, or null. */
export function parseDistractorsReply(content: string | null | undefined): string[][] | null {
  if (!content) return null;
  const firstBrace = content.indexOf('{');
  const lastBrace = content.lastIndexOf('}');
  if (firstBrace < 0 || lastBrace < firstBrace) return null;
  try {
    const parsed = JSON.parse(content.slice(firstBrace, lastBrace + 1)) as { items?: unknown };
    if (!Array.isArray(parsed.items)) return null;
    return parsed.items.map((item) => {
      const list = (item as { distractors?: unknown } | null)?.distractors;
      return Array.isArray(list) ? list.filter((value): value is string => typeof value === 'string') : [];
    });
  } catch {
    return null;
  }
}

/** The part of a streamed chat-completions chunk this provider reads. */
interface CompletionChunk {
  choices?: { delta?: { content?: string | null } }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
}

/** The part of a whole chat-completions reply this provider reads. */
interface CompletionReply {
  choices?: { message?: { content?: string | null } }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
}

export function createOpenAiProvider(options: OpenAiProviderOptions): AiProvider {
  const client = new OpenAI({
    baseURL: options.baseUrl ?? 'https://api.openai.com/v1',
    // Local servers (Ollama, llama.cpp…) take any key; the SDK insists on one.
    apiKey: options.apiKey ?? 'no-key',
    maxRetries: options.maxRetries,
    timeout: options.requestTimeoutMs,
  });
  // Turned off for this provider (until restart) the first time the server refuses response_format.
  let structuredOutput = true;
  // Turned off the same way the first time the server refuses `stream` (or `stream_options`).
  let streaming = true;

  /**
   * One chat-completions request, streamed when the server can: each card object is handed to `onItem` as soon
   * as it is complete. A server that answers with a whole JSON reply instead of an event stream works too.
   */
  async function request(
    prompt: { system: string; user: string; schema: Record<string, unknown> },
    signal: AbortSignal,
    onItem: (value: unknown) => void,
    usage: TokenUsage,
  ): Promise<string> {
    const body = {
      model: options.model,
      messages: [
        { role: 'system' as const, content: prompt.system },
        { role: 'user' as const, content: prompt.user },
      ],
      temperature: 0.3,
      ...(structuredOutput
        ? {
            response_format: {
              type: 'json_schema' as const,
              json_schema: { name: 'flashcards', strict: true, schema: prompt.schema },
            },
          }
        : {}),
    };
    const response = streaming
      ? await client.chat.completions
          .create({ ...body, stream: true, stream_options: { include_usage: true } }, { signal })
          .asResponse()
      : await client.chat.completions.create(body, { signal }).asResponse();
    const addUsage = (reported: CompletionReply['usage']) => {
      usage.promptTokens += reported?.prompt_tokens ?? 0;
      usage.completionTokens += reported?.completion_tokens ?? 0;
    };
    if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
      // A whole reply: not asked to stream, or a server that ignores `stream`.
      const reply = (await response.json()) as CompletionReply;
      addUsage(reply.usage);
      return reply.choices?.[0]?.message?.content ?? '';
    }
    const controller = new AbortController();
    const stop = () => controller.abort();
    signal.addEventListener('abort', stop, { once: true });
    let content = '';
    const cards = createCardStream(onItem);
    try {
      for await (const chunk of Stream.fromSSEResponse<CompletionChunk>(response, controller)) {
        if (chunk.usage) addUsage(chunk.usage);
        const delta = chunk.choices?.[0]?.delta?.content;
        if (!delta) continue;
        content += delta;
        cards.write(delta);
      }
    } finally {
      signal.removeEventListener('abort', stop);
    }
    return content;
  }

  async function complete(
    prompt: { system: string; user: string; schema: Record<string, unknown> },
    style: CardStyle,
    signal: AbortSignal,
    maxItems: number,
    onCard?: (card: CardDraft) => void,
  ): Promise<ProviderResult> {
    const usage: TokenUsage = { promptTokens: 0, completionTokens: 0 };
    // One retry when the reply cannot be used; a server that refuses structured output (or streaming) is asked
    // again without it.
    for (let attempt = 0; attempt < 2; ) {
      const streamed: CardDraft[] = [];
      const onItem = (value: unknown) => {
        if (streamed.length >= maxItems) return;
        const [card] = validCards([value], style);
        if (!card) return;
        streamed.push(card);
        onCard?.(card);
      };
      let content: string;
      try {
        content = await request(prompt, signal, onItem, usage);
      } catch (error) {
        if (signal.aborted) throw new AiTimeoutError('generation deadline passed');
        if (error instanceof APIConnectionTimeoutError) throw new AiTimeoutError('provider request timed out');
        if (error instanceof APIUserAbortError) throw new AiTimeoutError('aborted');
        if (error instanceof BadRequestError && streamed.length === 0) {
          if (streaming && /stream/i.test(error.message)) {
            streaming = false;
            continue;
          }
          if (structuredOutput && /response_format|json_schema|schema/i.test(error.message)) {
            structuredOutput = false;
            continue;
          }
        }
        const status = error instanceof APIError ? error.status : undefined;
        throw new AiUnavailableError(`provider request failed${status ? ` with status ${status}` : ''}`);
      }
      attempt++;
      if (streamed.length > 0) return { cards: streamed, usage };
      // Not streamed (a whole reply, or JSON the stream could not follow): read the whole reply.
      const parsed = parseCardsReply(content);
      const cards = parsed ? validCards(parsed, style).slice(0, maxItems) : [];
      if (cards.length > 0) {
        for (const card of cards) onCard?.(card);
        return { cards, usage };
      }
    }
    throw new AiUnavailableError('provider replied twice without usable cards');
  }

  /** One short, unstreamed request with its own JSON schema (a verdict, distractors): the reply's text. */
  async function askOnce(
    prompt: { system: string; user: string },
    schemaName: string,
    schema: object,
    temperature: number,
    signal: AbortSignal,
    what: string,
  ): Promise<string | null | undefined> {
    let reply: CompletionReply;
    try {
      reply = (await client.chat.completions.create(
        {
          model: options.model,
          messages: [
            { role: 'system', content: prompt.system },
            { role: 'user', content: prompt.user },
          ],
          temperature,
          ...(structuredOutput
            ? {
                response_format: {
                  type: 'json_schema' as const,
                  json_schema: { name: schemaName, strict: true, schema: schema as Record<string, unknown> },
                },
              }
            : {}),
        },
        { signal },
      )) as CompletionReply;
    } catch (error) {
      if (signal.aborted || error instanceof APIUserAbortError || error instanceof APIConnectionTimeoutError) {
        throw new AiTimeoutError(`${what} deadline passed`);
      }
      const status = error instanceof APIError ? error.status : undefined;
      throw new AiUnavailableError(`provider request failed${status ? ` with status ${status}` : ''}`);
    }
    return reply.choices?.[0]?.message?.content;
  }

  return {
    name: 'openai',
    model: options.model,
    generateCards({ text, maxCards, style }, signal, onCard) {
      const prompt = { ...cardsPrompt(text, maxCards, style), schema: cardsSchemaFor(style) };
      return complete(prompt, style, signal, maxCards, onCard);
    },
    generateQuiz({ cards, maxQuestions }: { cards: CardDraft[]; maxQuestions: number }, signal) {
      return complete({ ...quizPrompt(cards, maxQuestions), schema: quizSchema }, 'basic', signal, maxQuestions);
    },
    async judgeAnswer(input, signal) {
      const content = await askOnce(judgePrompt(input), 'judgement', judgementSchema, 0, signal, 'judging');
      const judgement = parseJudgementReply(content);
      if (!judgement) throw new AiUnavailableError('provider replied without a verdict');
      return judgement;
    },
    async writeDistractors(input, signal) {
      const content = await askOnce(
        distractorsPrompt(input),
        'distractors',
        distractorsSchema,
        0.7,
        signal,
        'distractor',
      );
      const written = parseDistractorsReply(content);
      if (!written) throw new AiUnavailableError('provider replied without distractors');
      return written;
    },
  };
}
