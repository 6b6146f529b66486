import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { TestClock } from '../../../test/support/test-clock';
import { createOfflineProvider } from '../../adapters/ai/offline/offline-provider';
import type { Extractor } from '../../adapters/extract/extractor';
import { memoryRateLimiters } from '../../adapters/rate-limit/rate-limiter';
import { loadConfig } from '../../config';
import type { QuotaService } from '../quota/quota.service';
import { createGenerationService } from './generation.service';

const secretText = 'Mitosis is the division of one cell into two identical daughter cells.';

function recordingLogger() {
  const entries: { level: string; obj: unknown; msg?: string }[] = [];
  const record = (level: string) => (obj: unknown, msg?: string) => {
    entries.push({ level, obj, msg });
  };
  const logger = {
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
    debug: record('debug'),
  } as unknown as FastifyBaseLogger;
  return { logger, entries };
}

function service(env: Record<string, string> = {}) {
  const quota = {
    reserve: async (userId: string, cost: number) => ({
      userId,
      cost,
      period: '2026-11',
      draw: { premium: 0, free: cost, purchased: 0 },
    }),
    refund: async () => {},
    balance: async () => ({ premiumQuota: 0, premiumUsed: 0, freeQuota: 10, freeUsed: 1, purchased: 0, remaining: 9 }),
    status: async () => {
      throw new Error('unused');
    },
  } as unknown as QuotaService;
  const extractor: Extractor = { extract: async () => [] };
  return createGenerationService({
    provider: createOfflineProvider(),
    extractor,
    limiter: memoryRateLimiters()({ name: 'create', points: 100, windowMs: 3_600_000 }),
    fileLock: memoryRateLimiters()({ name: 'create-file', points: 1, windowMs: 60_000 }),
    quota,
    clock: new TestClock(),
    ai: loadConfig(env).ai,
  });
}

describe('generation log', () => {
  it('records provider, model, input size, chunks and cards, and never the text by default', async () => {
    const { logger, entries } = recordingLogger();
    await service().generate('user', { text: secretText, file: null, cardStyle: 'basic' }, logger);
    const entry = entries.find((e) => e.msg === 'generation finished');
    expect(entry?.level).toBe('info');
    expect(entry?.obj).toEqual({
      generation: {
        provider: 'offline',
        model: 'offline-extractive',
        inputChars: secretText.length,
        chunks: 1,
        cardStyle: 'basic',
        cards: 1,
        ms: 0,
      },
    });
    expect(JSON.stringify(entries)).not.toContain('Mitosis');
  });

  it('adds the text only when LOG_GENERATION_TEXT is on', async () => {
    const { logger, entries } = recordingLogger();
    await service({ LOG_GENERATION_TEXT: 'true' }).generate(
      'user',
      { text: secretText, file: null, cardStyle: 'basic' },
      logger,
    );
    expect(entries.find((e) => e.msg === 'generation finished')?.obj).toMatchObject({
      generation: { text: secretText },
    });
  });
});
