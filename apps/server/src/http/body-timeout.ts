import type { FastifyInstance } from 'fastify';

/**
 * Bodies that are not uploads must arrive within `ms`: a client that trickles a JSON or form body a byte at a time
 * has its socket closed then, instead of holding it until the (longer) whole-request timeout that uploads need.
 */
export function registerBodyTimeout(app: FastifyInstance, ms: number): void {
  app.addHook('onRequest', async (request) => {
    if (request.raw.complete || request.isMultipart()) return;
    const timer = setTimeout(() => {
      if (!request.raw.complete) request.raw.socket.destroy();
    }, ms);
    timer.unref();
    request.raw.once('end', () => clearTimeout(timer));
    request.raw.once('close', () => clearTimeout(timer));
  });
}
