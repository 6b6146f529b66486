import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { signal } from '../../test/support/signal';
import { createTestApp } from '../../test/support/test-app';

// What server.ts does on SIGTERM/SIGINT (app.close()): stop accepting, finish what is in flight, close the database.

describe('graceful shutdown', () => {
  it('finishes a request in flight, then refuses new connections and closes the database', async () => {
    const held = signal();
    const inFlight = signal();
    const ctx = await createTestApp({
      beforeReady: (app) => {
        app.get('/test/slow', async () => {
          inFlight.fire();
          await held.promise;
          return { finished: true };
        });
      },
    });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const base = `http://127.0.0.1:${port}`;

    const slow = new Promise<{ status: number; body: string }>((resolve, reject) => {
      get(`${base}/test/slow`, { agent: false }, (res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      }).on('error', reject);
    });
    await inFlight.promise;
    const closing = ctx.app.close();
    // The listener stops while the slow request is still being served (after the preClose hooks, which stop the
    // import and fitting processes, so it is waited for rather than timed).
    while (ctx.app.server.listening) await new Promise((resolve) => setTimeout(resolve, 10));
    held.fire();
    const response = await slow;
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ finished: true });
    await closing;
    await ctx.database.destroy();
    await expect(ctx.database.db.selectFrom('users').select('id').execute()).rejects.toThrow();
  });
});
