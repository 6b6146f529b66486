import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers every response starts with: what protects an answer that is not a page (JSON, the event stream, a
 * download, an asset), after OWASP's REST Security Cheat Sheet. Nothing may render it as a document with any power:
 * no sources at all, never framed, never sniffed into another type; HTTPS-only when HSTS is on.
 */
function answerHeaders(page: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
  };
  const hsts = page['strict-transport-security'];
  if (hsts) headers['strict-transport-security'] = hsts;
  return headers;
}

/**
 * Security headers: a short strict set on every response (above), and helmet's full set for pages (`text/html`),
 * whose policy lets the web app load its scripts and Google's sign-in. A JSON answer gets 6 headers, not 15: the
 * page-only ones (a page's CSP, COOP, Origin-Agent-Cluster, DNS prefetching, the legacy IE and Flash switches) do
 * nothing for a response no browser renders, and cost bytes and time on every API request.
 * helmet runs once, at start-up, against a stand-in response; its headers are then copied onto each page. None of
 * our options depends on the request (no CSP nonces). A route may set its own (the media route's sandbox policy).
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const page: Record<string, string> = {};
  const standIn = {
    setHeader(name: string, value: string | number | readonly string[]) {
      page[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete page[name.toLowerCase()];
    },
  };
  let applied = false;
  helmet(options)({} as IncomingMessage, standIn as unknown as ServerResponse, () => {
    applied = true;
  });
  if (!applied) throw new Error('helmet did not finish synchronously');
  const answer = answerHeaders(page);
  const answerPolicy = answer['content-security-policy'];
  // Set when the request arrives, so that a route's own header wins and a hijacked reply (the event stream) has them.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(answer);
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    // A page gets the full set, unless its route chose its own policy.
    if (typeof type === 'string' && type.startsWith('text/html')) {
      const policy = reply.getHeader('content-security-policy');
      reply.headers(policy === answerPolicy ? page : { ...page, 'content-security-policy': String(policy) });
    }
    done(null, payload);
  });
}
