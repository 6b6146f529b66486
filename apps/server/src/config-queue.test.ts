import { describe, expect, it } from 'vitest';
import { configProblems } from '../test/support/config-env';
import { loadConfig } from './config';

describe('generation queue settings', () => {
  it('defaults to generating in process', () => {
    expect(loadConfig({}).generationQueue).toEqual({ mode: 'in-process', name: 'generation', workerConcurrency: 2 });
  });

  it('takes redis with REDIS_URL, a queue name and a worker concurrency', () => {
    const config = loadConfig({
      GENERATION_QUEUE: 'redis',
      REDIS_URL: 'redis://127.0.0.1:6379',
      GENERATION_QUEUE_NAME: 'cards-eu_1',
      GENERATION_WORKER_CONCURRENCY: '6',
    });
    expect(config.generationQueue).toEqual({ mode: 'redis', name: 'cards-eu_1', workerConcurrency: 6 });
  });

  it('names every bad value', () => {
    expect(configProblems({ GENERATION_QUEUE: 'redis' })).toEqual([
      'GENERATION_QUEUE is "redis" but REDIS_URL is not set (got "redis")',
    ]);
    expect(configProblems({ GENERATION_QUEUE: 'kafka' })).toEqual([
      'GENERATION_QUEUE must be in-process or redis (got "kafka")',
    ]);
    expect(configProblems({ GENERATION_QUEUE_NAME: 'a b' })).toEqual([
      'GENERATION_QUEUE_NAME must be 1 to 64 letters, digits, _ or - (got "a b")',
    ]);
    expect(configProblems({ GENERATION_WORKER_CONCURRENCY: '0' })).toEqual([
      'GENERATION_WORKER_CONCURRENCY must be a positive whole number (got "0")',
    ]);
  });
});
