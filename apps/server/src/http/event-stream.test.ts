import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openEventStream, wantsEventStream } from './event-stream';

afterEach(() => {
  vi.useRealTimers();
});

describe('wantsEventStream', () => {
  it('is true only when Accept lists text/event-stream', async () => {
    const app = Fastify();
    app.get('/', async (request) => ({ wants: wantsEventStream(request) }));
    const ask = async (accept?: string) =>
      (await app.inject({ url: '/', headers: accept ? { accept } : {} })).json().wants;
    expect(await ask('text/event-stream')).toBe(true);
    expect(await ask('application/json, text/event-stream;q=0.9')).toBe(true);
    expect(await ask('application/json')).toBe(false);
    expect(await ask('text/event-streams')).toBe(false);
    expect(await ask()).toBe(false);
    await app.close();
  });
});

describe('openEventStream', () => {
  it('writes events, and a keep-alive comment only after keepAliveMs without anything else', async () => {
    vi.useFakeTimers();
    const app = Fastify();
    app.get('/', async (request, reply) => {
      const stream = openEventStream(request, reply, { keepAliveMs: 15_000 });
      await vi.advanceTimersByTimeAsync(14_999);
      stream.send('progress', { stage: 'generating', done: 0, total: 3 });
      // The event moved the timer: 14.999 s more is still quiet.
      await vi.advanceTimersByTimeAsync(14_999);
      await vi.advanceTimersByTimeAsync(1);
      await vi.advanceTimersByTimeAsync(15_000);
      stream.send('done', { cards: [], cost: 1, remaining: 2 });
      stream.end();
      stream.send('late', {});
    });
    const response = await app.inject({ url: '/' });
    expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toBe(
      'event: progress\ndata: {"stage":"generating","done":0,"total":3}\n\n' +
        ': keep-alive\n\n' +
        ': keep-alive\n\n' +
        'event: done\ndata: {"cards":[],"cost":1,"remaining":2}\n\n',
    );
    await app.close();
  });
});
