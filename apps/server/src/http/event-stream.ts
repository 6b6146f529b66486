import type { FastifyReply, FastifyRequest } from 'fastify';

/** The request asks for an event stream (`Accept: text/event-stream`). */
export function wantsEventStream(request: FastifyRequest): boolean {
  return /(^|,)\s*text\/event-stream\s*(;|,|$)/i.test(request.headers.accept ?? '');
}

export interface EventStream {
  /** One event: an `event:` line and one `data:` line of JSON. Nothing happens once the stream is closed. */
  send(event: string, data: unknown): void;
  end(): void;
}

export interface EventStreamOptions {
  /** A `: keep-alive` comment goes out after this long without anything else (docs/api.md, "Streaming generation": at most 15 s). */
  keepAliveMs: number;
}

/**
 * Takes the reply over from Fastify and answers 200 `text/event-stream`, uncompressed and unbuffered, with the
 * headers Fastify's hooks had set so far (security headers, request id). A comment line keeps idle proxies and
 * browsers from closing the connection while the work is silent.
 */
export function openEventStream(
  request: FastifyRequest,
  reply: FastifyReply,
  options: EventStreamOptions,
): EventStream {
  reply.hijack();
  const raw = reply.raw;
  const headers: Record<string, string | number | string[]> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined && name !== 'content-length' && name !== 'content-encoding') headers[name] = value;
  }
  raw.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
    'x-request-id': request.id,
  });
  raw.flushHeaders();
  let timer: NodeJS.Timeout | undefined;
  let open = true;
  const write = (text: string) => {
    if (!open || raw.writableEnded || raw.destroyed) return;
    raw.write(text);
    arm();
  };
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => write(': keep-alive\n\n'), options.keepAliveMs);
  };
  arm();
  raw.once('close', () => {
    open = false;
    clearTimeout(timer);
  });
  return {
    send(event, data) {
      write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end() {
      clearTimeout(timer);
      if (open && !raw.writableEnded) raw.end();
      open = false;
    },
  };
}
