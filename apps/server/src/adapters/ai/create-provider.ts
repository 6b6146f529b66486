import type { Config } from '../../config';
import type { AiProvider } from './ai-provider';
import { createOfflineProvider } from './offline/offline-provider';
import { createOpenAiProvider } from './openai-provider';

/** The provider the settings ask for: `openai` (any OpenAI-compatible server) or the built-in `offline` one. */
export function createAiProvider(ai: Config['ai']): AiProvider {
  if (ai.provider === 'offline') return createOfflineProvider();
  return createOpenAiProvider({
    baseUrl: ai.baseUrl,
    apiKey: ai.apiKey,
    model: ai.model,
    maxRetries: ai.maxRetries,
    requestTimeoutMs: ai.timeoutMs,
  });
}
