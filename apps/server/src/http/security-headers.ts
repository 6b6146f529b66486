import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * helmet's security headers, worked out once: helmet is run against a stand-in response at start-up and the headers
 * it set are then copied onto every reply. (Running helmet per request, as its Fastify plugin does, rebuilt every
 * header from the options each time: a tenth of the server's work on a small JSON request.) None of our options
 * depends on the request (no CSP nonces), so every response gets the same headers.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const headers: Record<string, string> = {};
  const standIn = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let applied = false;
  helmet(options)({} as IncomingMessage, standIn as unknown as ServerResponse, () => {
    applied = true;
  });
  if (!applied) throw new Error('helmet did not finish synchronously');
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
