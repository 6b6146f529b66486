import { type DestinationStream, pino } from 'pino';

export interface LogDestination {
  /** What pino writes its lines to. */
  stream: DestinationStream;
  /** From now on, once stdout takes lines again after some were dropped, `log` says how many. */
  reportDropsTo(log: { warn(details: object, message: string): void }): void;
}

/**
 * stdout for the server's log. Lines are written in the background, in batches of at least 4 KiB and at least once a
 * second, rather than one write each (a write per line cost a fifth of a small request; bench/http-overhead). Pino
 * flushes what is left when the process exits; a SIGKILL may lose the last second of lines.
 * A reader that stops reading (a stalled log collector, a full pipe) must not grow the server's memory without bound:
 * lines waiting beyond `maxBufferBytes` are dropped and counted instead, and the count is logged once lines flow again.
 */
export function createLogDestination(maxBufferBytes: number): LogDestination {
  const stream = pino.destination({
    dest: 1,
    sync: false,
    minLength: 4096,
    periodicFlush: 1000,
    maxLength: maxBufferBytes,
    // Each line as a Buffer: given text, sonic-boom measures the UTF-8 length of the whole batch still waiting, on
    // every line; given a Buffer, it adds the line's length.
    contentMode: 'buffer',
  });
  // Pino writes what is left synchronously when the process exits. With stdout's reader gone (a log collector that
  // died), that write fails with EPIPE: the lines have nowhere to go, and the exit goes on (an exception here made a
  // clean SIGTERM exit 1; sonic-boom 4 retried it forever). Pino does the same for the asynchronous writes.
  const flushSync = stream.flushSync.bind(stream);
  stream.flushSync = () => {
    try {
      flushSync();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
    }
  };
  // In buffer mode sonic-boom's write takes a Buffer; its types know only text.
  const inBufferMode = stream as unknown as { write(data: Buffer): boolean };
  let dropped = 0;
  stream.on('drop', () => {
    dropped++;
  });
  return {
    // `write` is looked up on each line: pino replaces it once stdout's reader is gone (EPIPE).
    stream: { write: (line: string) => inBufferMode.write(Buffer.from(line)) },
    reportDropsTo(log) {
      stream.on('write', () => {
        if (dropped === 0) return;
        const count = dropped;
        dropped = 0;
        // Not from inside the stream's own event: the line goes through the stream.
        setImmediate(() =>
          log.warn({ droppedLines: count }, `${count} log lines were dropped while stdout was not being read`),
        );
      });
    },
  };
}
