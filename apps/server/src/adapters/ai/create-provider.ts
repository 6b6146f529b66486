import type { Config } from '../../config';
import type { AiProvider } from './ai-provider';
import { createOfflineProvider, offlineWorkers } from './offline/offline-provider';
import { createOpenAiProvider } from './openai-provider';

/**
 * The provider the settings ask for: `openai` (any OpenAI-compatible server) or the built-in `offline` one, whose
 * work runs in worker processes; `close` ends them.
 */
export function createAiProvider(ai: Config['ai']): AiProvider & { close?: () => Promise<void> } {
  if (ai.provider === 'offline') {
    const workers = offlineWorkers(ai.offlineWorkers);
    return Object.assign(createOfflineProvider(workers), { close: workers.close });
  }
  return createOpenAiProvider({
    baseUrl: ai.baseUrl,
    apiKey: ai.apiKey,
    model: ai.model,
    maxRetries: ai.maxRetries,
    requestTimeoutMs: ai.timeoutMs,
  });
}
