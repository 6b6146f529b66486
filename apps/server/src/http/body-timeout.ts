import type { FastifyInstance } from 'fastify';

export interface BodyTimeouts {
  /** Time to receive the body of an upload (multipart). */
  uploadMs: number;
  /** Time to receive any other body. */
  otherMs: number;
}

/**
 * A request body must arrive within its deadline, counted from the request's start: a client that trickles a body
 * a byte at a time has its socket closed then instead of holding it for as long as it likes. Uploads (told apart
 * by their multipart content type) get the longer deadline a large file on a slow line needs. Node's own
 * `requestTimeout` is set too, but it does not end a slow body reliably behind Fastify, so this hook is the bound.
 */
export function registerBodyTimeouts(app: FastifyInstance, timeouts: BodyTimeouts): void {
  app.addHook('onRequest', (request, reply, done) => {
    const hasBody =
      request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined;
    if (!hasBody || request.raw.complete) {
      done();
      return;
    }
    const type = (request.headers['content-type'] ?? '').toLowerCase();
    const ms = type.startsWith('multipart/') ? timeouts.uploadMs : timeouts.otherMs;
    const timer = setTimeout(() => {
      // Only a body still arriving with no answer sent yet: a finished exchange keeps its connection.
      if (!request.raw.complete && !reply.raw.headersSent) request.raw.socket?.destroy();
    }, ms);
    timer.unref();
    // A response always ends with 'close' (sent, or its connection gone); until then the timer checks the body itself.
    reply.raw.once('close', () => clearTimeout(timer));
    done();
  });
}
