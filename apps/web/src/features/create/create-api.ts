import type {
  CardStyle,
  GeneratedCard,
  GenerateResponse,
  GenerationProgress,
  GenerationStreamError,
} from '@flashcards/shared/api-types';
import { timeouts } from '@flashcards/shared/limits';
import { messages } from '@flashcards/shared/messages';
import { useQueryClient } from '@tanstack/react-query';
import { createParser } from 'eventsource-parser';
import { useCallback, useRef, useState } from 'react';
import { type ApiClient, ApiRequestError } from '../../lib/api-client';
import { useApi } from '../../lib/api-context';
import { billingKeys } from '../../lib/billing-api';

/** What a streaming generation tells the page as it goes. */
export interface GenerationHandlers {
  onProgress(progress: GenerationProgress): void;
  onCard(card: GeneratedCard): void;
}

/** What one generation is asked for: the text, the file, the card style, and the deck to find duplicates in. */
export interface GenerationInput {
  text: string;
  file: File | null;
  cardStyle: CardStyle;
  /** A deck whose cards the new ones are compared with ('' for none). */
  deckId: string;
}

/** The user pressed Cancel: not an error to show. */
export class GenerationCancelled extends Error {
  override name = 'GenerationCancelled';
}

function isGenerateResponse(value: unknown): value is GenerateResponse {
  return typeof value === 'object' && value !== null && Array.isArray((value as GenerateResponse).cards);
}

/**
 * POST /create with `Accept: text/event-stream`: progress and cards are handed over as they arrive, and the
 * promise resolves with the `done` body (or rejects with an ApiRequestError built from the `error` event, as the
 * JSON reply's error would be). A server that answers JSON (errors before any work, or no streaming) works too.
 * The 180 s generation timeout covers the whole stream; `signal` is the Cancel button.
 */
export async function streamGeneration(
  api: ApiClient,
  input: GenerationInput,
  handlers: GenerationHandlers,
  signal: AbortSignal,
): Promise<GenerateResponse> {
  const formData = new FormData();
  if (input.text.trim()) formData.append('text', input.text);
  formData.append('card_style', input.cardStyle);
  if (input.file) formData.append('file', input.file, input.file.name);
  if (input.deckId) formData.append('deck_id', input.deckId);
  const deadline = AbortSignal.timeout(timeouts.generationRequestMs);
  const stopped = (error: unknown) => {
    if (signal.aborted) return new GenerationCancelled('cancelled');
    if (deadline.aborted) {
      // biome-ignore lint/suspicious/noConsole: a request that timed out is logged here; the screen shows its own message.
      console.error(messages.requestTimeout);
      return new ApiRequestError('timeout', null, null, null);
    }
    return error;
  };
  let response: Response;
  try {
    response = await api.postStream('/create', {
      formData,
      accept: 'text/event-stream',
      signal: AbortSignal.any([signal, deadline]),
    });
  } catch (error) {
    throw stopped(error);
  }
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const body: unknown = await response.json().catch(() => {
      throw stopped(new ApiRequestError('network', null, null, null));
    });
    if (!isGenerateResponse(body)) throw new Error('malformed generation response');
    return body;
  }
  let result: GenerateResponse | null = null;
  let failure: GenerationStreamError | null = null;
  const parser = createParser({
    onEvent(message) {
      let data: unknown;
      try {
        data = JSON.parse(message.data);
      } catch {
        return;
      }
      if (message.event === 'progress') handlers.onProgress(data as GenerationProgress);
      else if (message.event === 'card') handlers.onCard(data as GeneratedCard);
      else if (message.event === 'done' && isGenerateResponse(data)) result = data;
      else if (message.event === 'error') failure = data as GenerationStreamError;
    },
  });
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) break;
      parser.feed(decoder.decode(chunk.value, { stream: true }));
    }
  } catch {
    throw stopped(new ApiRequestError('network', null, null, null));
  }
  const ended = failure as GenerationStreamError | null;
  if (ended) throw new ApiRequestError('http', ended.status, ended.code, ended.detail);
  if (!result) throw stopped(new ApiRequestError('network', null, null, null));
  return result;
}

/**
 * The create page's generation: `start` streams one generation, `cancel` stops it (the server stops its work
 * too, and refunds when no card had arrived). The quota is refreshed after every attempt.
 */
export function useGenerateCards() {
  const api = useApi();
  const queryClient = useQueryClient();
  const [isPending, setPending] = useState(false);
  const controller = useRef<AbortController | null>(null);

  const start = useCallback(
    async (input: GenerationInput, handlers: GenerationHandlers) => {
      const own = new AbortController();
      controller.current = own;
      setPending(true);
      try {
        return await streamGeneration(api, input, handlers, own.signal);
      } finally {
        if (controller.current === own) controller.current = null;
        setPending(false);
        void queryClient.invalidateQueries({ queryKey: billingKeys.status });
      }
    },
    [api, queryClient],
  );
  const cancel = useCallback(() => controller.current?.abort(), []);
  return { start, cancel, isPending };
}
