import { afterAll, beforeAll, beforeEach } from 'vitest';
import { FakeChatServer } from './fake-chat-server';
import { type TestAppOptions, type TestContext, useTestApp } from './test-app';

/** The settings that point an app at a chat-completions server, with no retries so a failure shows at once. */
export const modelEnv = (baseUrl: string, extra: Record<string, string> = {}): Record<string, string> => ({
  AI_PROVIDER: 'openai',
  OPENAI_BASE_URL: baseUrl,
  OPENAI_API_KEY: 'sk-test',
  AI_MODEL: 'test-model',
  AI_MAX_RETRIES: '0',
  ...extra,
});

/** A fake chat-completions server for the file (or describe block): started first, its requests cleared per test. */
export function useFakeChatServer(): FakeChatServer {
  const fake = new FakeChatServer();
  beforeAll(async () => {
    await fake.start();
  });
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.requests.length = 0;
  });
  return fake;
}

/** An app whose model is `fake`, built after it starts; `extra` adds settings, `options` the rest (e.g. `shareWith`). */
export function useModelApp(
  fake: FakeChatServer,
  extra: Record<string, string> = {},
  options: () => Omit<TestAppOptions, 'env'> = () => ({}),
): TestContext {
  return useTestApp(() => ({ ...options(), env: modelEnv(fake.url, extra) }));
}
