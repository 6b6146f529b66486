import { multipartBody } from './multipart';

/** One server-sent event: its name and its data line parsed as JSON. */
export interface StreamEvent {
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever each event carries.
  data: any;
}

export interface ParsedStream {
  events: StreamEvent[];
  /** Comment lines (`: keep-alive`), without the colon. */
  comments: string[];
}

/** Parses a whole `text/event-stream` body; fails on a block that is not one event line and one data line. */
export function parseEventStream(body: string): ParsedStream {
  const events: StreamEvent[] = [];
  const comments: string[] = [];
  for (const block of body.split('\n\n')) {
    if (!block.trim()) continue;
    const lines = block.split('\n');
    if (lines.every((line) => line.startsWith(':'))) {
      comments.push(...lines.map((line) => line.slice(1).trim()));
      continue;
    }
    const [eventLine, dataLine, ...rest] = lines.filter((line) => !line.startsWith(':'));
    if (!eventLine?.startsWith('event: ') || !dataLine?.startsWith('data: ') || rest.length > 0) {
      throw new Error(`not an event block: ${JSON.stringify(block)}`);
    }
    events.push({ event: eventLine.slice('event: '.length), data: JSON.parse(dataLine.slice('data: '.length)) });
  }
  return { events, comments };
}

/** A POST /create read as it streams from a listening server; `abort` closes the connection like a closed tab. */
export interface LiveStream {
  status: number;
  contentType: string | null;
  /** Resolves with the next event (skipping comments), or null when the stream ended. */
  next(): Promise<StreamEvent | null>;
  /** The comments read so far (`keep-alive`), in order. */
  comments: string[];
  abort(): void;
}

export async function openLiveStream(url: string, init: { headers: Record<string, string>; body: Buffer }) {
  const controller = new AbortController();
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...init.headers, accept: 'text/event-stream' },
    body: new Uint8Array(init.body),
    signal: controller.signal,
  });
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const stream: LiveStream = {
    status: response.status,
    contentType: response.headers.get('content-type'),
    comments: [],
    async next() {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end + 2);
          buffer = buffer.slice(end + 2);
          const parsed = parseEventStream(block);
          stream.comments.push(...parsed.comments);
          const [event] = parsed.events;
          if (event) return event;
          continue;
        }
        const chunk = await reader?.read();
        if (!chunk || chunk.done) return null;
        buffer += decoder.decode(chunk.value, { stream: true });
      }
    },
    abort() {
      controller.abort();
    },
  };
  return stream;
}

/** POST /create of `text` to a listening server (`baseUrl`), read as it streams. */
export function openCreateStream(baseUrl: string, headers: Record<string, string>, text: string) {
  const body = multipartBody([{ name: 'text', value: text }]);
  return openLiveStream(`${baseUrl}/create`, { headers: { ...headers, ...body.headers }, body: body.payload });
}

/** Every event left on the stream, in order; `onEvent` sees each one as it comes. */
export async function readAll(stream: LiveStream, onEvent?: (event: StreamEvent) => void): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for (let event = await stream.next(); event; event = await stream.next()) {
    onEvent?.(event);
    events.push(event);
  }
  return events;
}

/** Reads until the first `card` event and returns it (null when the stream ends without one). */
export async function nextCard(stream: LiveStream): Promise<StreamEvent | null> {
  let event = await stream.next();
  while (event && event.event !== 'card') event = await stream.next();
  return event;
}
