export interface LogLine {
  msg?: string;
  [field: string]: unknown;
}

/**
 * The app's log, kept for a test (createTestApp's `logStream`): every JSON line in `lines`, and `line(msg, from)`
 * resolves with the first line at index `from` or later whose message is `msg`, once it is written. A test waits on
 * what the server says it did, not on the clock.
 */
export function captureLog() {
  const lines: LogLine[] = [];
  const waiting = new Set<{ msg: string; from: number; resolve: (line: LogLine) => void }>();
  const settle = () => {
    for (const waiter of waiting) {
      const found = lines.slice(waiter.from).find((line) => line.msg === waiter.msg);
      if (found) {
        waiting.delete(waiter);
        waiter.resolve(found);
      }
    }
  };
  return {
    lines,
    stream: {
      write(text: string) {
        for (const raw of text.split('\n')) if (raw.startsWith('{')) lines.push(JSON.parse(raw) as LogLine);
        settle();
      },
    },
    line(msg: string, from = 0): Promise<LogLine> {
      return new Promise((resolve) => {
        waiting.add({ msg, from, resolve });
        settle();
      });
    },
  };
}
