import { describe, expect, it } from 'vitest';
import { expectProblems } from '../test/support/config-env';
import { loadConfig } from './config';

describe('generation settings', () => {
  it('have defaults that work offline', () => {
    const config = loadConfig({});
    expect(config.ai).toEqual({
      provider: 'offline',
      model: 'gpt-4o-mini',
      baseUrl: undefined,
      apiKey: undefined,
      concurrency: 4,
      offlineWorkers: 2,
      timeoutMs: 180_000,
      maxRetries: 3,
      chunkChars: 6000,
      maxInputChars: 120_000,
      maxCardsPerGeneration: 40,
      logText: false,
    });
    expect(config.quota).toEqual({ freeGenerationsPerMonth: 10 });
    expect(config.quiz).toEqual({ rateLimitPerHour: 30, distractorsTimeoutMs: 5000 });
    expect(config.extraction).toEqual({
      timeoutMs: 60_000,
      maxPdfPages: 500,
      maxOcrPages: 10,
      maxUnzippedBytes: 104_857_600,
      maxXmlPartBytes: 25_165_824,
      maxPdfStreamBytes: 67_108_864,
      maxImagePixels: 40_000_000,
      workers: 2,
      queue: 16,
      memoryBytes: 768 * 1024 * 1024,
    });
    expect(config.createRateLimitPerHour).toBe(60);
    expect(config.requestTimeoutMs).toBe(120_000);
    expect(config.bodyTimeoutMs).toBe(30_000);
  });

  it('bound the parser workers, and name a bad bound', () => {
    const config = loadConfig({
      EXTRACT_WORKERS: '4',
      EXTRACT_QUEUE: '0',
      EXTRACT_MEMORY_MB: '256',
      BODY_TIMEOUT: '5s',
    });
    expect(config.extraction).toMatchObject({ workers: 4, queue: 0, memoryBytes: 256 * 1024 * 1024 });
    expect(config.bodyTimeoutMs).toBe(5000);
    expect(() => loadConfig({ EXTRACT_WORKERS: '0' })).toThrow('EXTRACT_WORKERS must be a positive whole number');
    expect(() => loadConfig({ EXTRACT_QUEUE: '-1' })).toThrow('EXTRACT_QUEUE must be a whole number, 0 or more');
  });

  it('read the environment, and a base URL alone selects the openai provider', () => {
    const config = loadConfig({
      OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
      AI_MODEL: 'llama3.1',
      AI_CONCURRENCY: '2',
      AI_TIMEOUT: '90s',
      FREE_GENERATIONS_PER_MONTH: '0',
      LOG_GENERATION_TEXT: '1',
    });
    expect(config.ai).toMatchObject({
      provider: 'openai',
      model: 'llama3.1',
      concurrency: 2,
      timeoutMs: 90_000,
      logText: true,
    });
    expect(config.quota.freeGenerationsPerMonth).toBe(0);
  });

  it('name every bad value', () => {
    expectProblems([
      ['AI_CONCURRENCY', '0', 'AI_CONCURRENCY must be a positive whole number (got "0")'],
      ['MAX_CARDS_PER_GENERATION', 'many', 'MAX_CARDS_PER_GENERATION must be a positive whole number (got "many")'],
      ['LOG_GENERATION_TEXT', 'maybe', 'LOG_GENERATION_TEXT must be true or false (got "maybe")'],
    ]);
  });
});
