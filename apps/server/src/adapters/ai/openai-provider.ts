import OpenAI, { APIConnectionTimeoutError, APIError, APIUserAbortError, BadRequestError } from 'openai';
import {
  type AiProvider,
  AiTimeoutError,
  AiUnavailableError,
  type CardDraft,
  type ProviderResult,
  type TokenUsage,
  validCards,
} from './ai-provider';
import { cardsPrompt, cardsSchema, quizPrompt } from './prompts';

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

  async function complete(
    prompt: { system: string; user: string },
    signal: AbortSignal,
    maxItems: number,
  ): Promise<ProviderResult> {
    const usage: TokenUsage = { promptTokens: 0, completionTokens: 0 };
    // One retry when the reply cannot be used; a server that refuses structured output is asked again without it.
    for (let attempt = 0; attempt < 2; ) {
      let content: string | null | undefined;
      try {
        const response = await client.chat.completions.create(
          {
            model: options.model,
            messages: [
              { role: 'system', content: prompt.system },
              { role: 'user', content: prompt.user },
            ],
            temperature: 0.3,
            ...(structuredOutput
              ? {
                  response_format: {
                    type: 'json_schema',
                    json_schema: { name: 'flashcards', strict: true, schema: cardsSchema },
                  },
                }
              : {}),
          },
          { signal },
        );
        usage.promptTokens += response.usage?.prompt_tokens ?? 0;
        usage.completionTokens += response.usage?.completion_tokens ?? 0;
        content = response.choices[0]?.message?.content;
      } catch (error) {
        if (signal.aborted) throw new AiTimeoutError('generation deadline passed');
        if (error instanceof APIConnectionTimeoutError) throw new AiTimeoutError('provider request timed out');
        if (error instanceof APIUserAbortError) throw new AiTimeoutError('aborted');
        if (
          structuredOutput &&
          error instanceof BadRequestError &&
          /response_format|json_schema|schema/i.test(error.message)
        ) {
          structuredOutput = false;
          continue;
        }
        const status = error instanceof APIError ? error.status : undefined;
        throw new AiUnavailableError(`provider request failed${status ? ` with status ${status}` : ''}`);
      }
      attempt++;
      const parsed = parseCardsReply(content);
      const cards = parsed ? validCards(parsed).slice(0, maxItems) : [];
      if (cards.length > 0) return { cards, usage };
    }
    throw new AiUnavailableError('provider replied twice without usable cards');
  }

  return {
    name: 'openai',
    model: options.model,
    generateCards({ text, maxCards }, signal) {
      return complete(cardsPrompt(text, maxCards), signal, maxCards);
    },
    generateQuiz({ cards, maxQuestions }: { cards: CardDraft[]; maxQuestions: number }, signal) {
      return complete(quizPrompt(cards, maxQuestions), signal, maxQuestions);
    },
  };
}
