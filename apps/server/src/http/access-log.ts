import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pino } from 'pino';

/** The access line's fields, in the order they are written. */
export interface AccessFields {
  reqId: string;
  method: string;
  url: string;
  address: string | undefined;
  statusCode: number;
  responseTime: number;
}

const MESSAGE = 'request completed';

function accessFields(request: FastifyRequest, reply: FastifyReply): AccessFields {
  return {
    reqId: request.id,
    method: request.method,
    url: request.url,
    address: request.ip,
    statusCode: reply.statusCode,
    responseTime: reply.elapsedTime,
  };
}

interface PinoInternals {
  [pino.symbols.streamSym]?: { write(line: string): unknown };
  [pino.symbols.chindingsSym]?: string;
}

/**
 * Writes the line pino writes for `log.info(fields, 'request completed')` (the same keys, order and values; the
 * test checks them against pino's own), straight to the logger's stream, without pino's generic path (a loop over
 * the keys with serializer and stringifier look-ups); kept because, against pino's own path, it clearly lowers the
 * cost of a request (docs/performance.md). It assumes pino's default level labels, time
 * and message key, as server.ts configures it. Null for a logger that is not pino (a test's own logger).
 */
export function fastAccessLine(log: FastifyBaseLogger): ((fields: AccessFields) => void) | null {
  const internals = log as unknown as PinoInternals;
  const stream = internals[pino.symbols.streamSym];
  const chindings = internals[pino.symbols.chindingsSym];
  if (!stream || typeof chindings !== 'string') return null;
  return (fields) => {
    // reqId is a UUID or matched requestIdPattern, the method a token Node's parser accepted, the address an IP:
    // none holds a character JSON escapes. The URL may hold anything.
    const address = fields.address === undefined ? '' : `,"address":"${fields.address}"`;
    stream.write(
      `{"level":30,"time":${Date.now()}${chindings},"reqId":"${fields.reqId}","method":"${fields.method}",` +
        `"url":${JSON.stringify(fields.url)}${address},"statusCode":${fields.statusCode},` +
        `"responseTime":${fields.responseTime},"msg":"${MESSAGE}"}\n`,
    );
  };
}

/**
 * One line per answered request at level info, written when it is answered (Fastify's own request logging is off):
 * flat values, not Fastify's req/res serializers (host, port, nested objects), which cost a small request noticeably
 * more. Written through the root logger, so that request.log (request-logger.ts) is made only for a request
 * that logs something else.
 */
export function registerAccessLog(app: FastifyInstance): void {
  const enabled = app.log.level === 'info' || app.log.level === 'debug' || app.log.level === 'trace';
  if (!enabled) return;
  const fast = fastAccessLine(app.log);
  app.addHook('onResponse', (request, reply, done) => {
    const fields = accessFields(request, reply);
    if (fast) fast(fields);
    else app.log.info(fields, MESSAGE);
    done();
  });
}
