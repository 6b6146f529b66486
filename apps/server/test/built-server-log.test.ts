import { describe, expect, it } from 'vitest';
import { stopBuiltServer, useBuiltServer } from './support/built-server';

// The built server's log on stdout, as `npm start` writes it: the access line, and what happens when nobody reads it.

interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

const DROPPED = /^(\d+) log lines were dropped while stdout was not being read$/;

const start = useBuiltServer('built-server-log-test-secret-long-enough-0123');

/** The JSON lines written so far whose message matches. */
function linesSaying(output: string, message: string | RegExp): LogLine[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine)
    .filter((line) => (typeof message === 'string' ? line.msg === message : message.test(line.msg)));
}

describe("the built server's log", () => {
  it('writes one line per answered request: method, URL, address, status code and time', {
    timeout: 90_000,
  }, async () => {
    const { url, child, output } = await start();
    expect((await fetch(`${url}/users/me?probe=1`)).status).toBe(401);
    expect((await fetch(`${url}/no-such-route`, { method: 'POST' })).status).toBe(404);
    await stopBuiltServer(child, 'SIGTERM');
    const lines = linesSaying(output(), 'request completed');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 30, method: 'GET', url: '/users/me?probe=1', address: '127.0.0.1' });
    expect(lines[0]?.statusCode).toBe(401);
    expect(lines[1]).toMatchObject({ method: 'POST', url: '/no-such-route', address: '127.0.0.1', statusCode: 404 });
    for (const line of lines) {
      expect(typeof line.reqId).toBe('string');
      expect(typeof line.responseTime).toBe('number');
    }
  });

  it('drops the lines a stalled stdout cannot take instead of keeping them, keeps serving, then says how many', {
    timeout: 120_000,
  }, async () => {
    const { url, child, output, said } = await start({ LOG_BUFFER_MAX_BYTES: '65536' });
    await said('serving ');
    child.stdout?.pause();
    // About 1 MB of access lines (answered 401: no database work): far beyond what the pipe (a few hundred KiB) and
    // the 64 KiB buffer can hold.
    const requests = 4000;
    for (let sent = 0; sent < requests; sent += 50) {
      const statuses = await Promise.all(
        Array.from({ length: 50 }, async (_, i) => (await fetch(`${url}/users/me?n=${sent + i}`)).status),
      );
      expect(statuses.filter((status) => status !== 401)).toEqual([]);
    }
    child.stdout?.resume();
    await said('log lines were dropped while stdout was not being read');
    await stopBuiltServer(child, 'SIGTERM');

    const warnings = linesSaying(output(), DROPPED);
    for (const warning of warnings) {
      expect(warning.level).toBe(40);
      expect(warning.msg).toBe(`${warning.droppedLines} log lines were dropped while stdout was not being read`);
    }
    const dropped = warnings.reduce((sum, warning) => sum + Number(warning.droppedLines), 0);
    const written = linesSaying(output(), 'request completed').filter((line) =>
      String(line.url).startsWith('/users/me?n='),
    ).length;
    // Every line reached stdout or was counted as dropped: none was lost unsaid, none kept beyond the bound.
    expect(dropped).toBeGreaterThan(0);
    expect(written).toBeGreaterThan(0);
    expect(written + dropped).toBe(requests);
  });

  it('stops on SIGTERM when nobody reads stdout any more (a log collector that died)', {
    timeout: 90_000,
  }, async () => {
    const { url, child, said } = await start();
    await said('serving ');
    // The reading end of the pipe closes: every write to stdout now fails with EPIPE.
    child.stdout?.destroy();
    expect((await fetch(`${url}/users/me`)).status).toBe(401);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    // It finishes what it serves and exits (the test's time limit bounds the wait); before, flushing the last lines
    // at exit retried EPIPE forever.
    expect(await exited).toBe(0);
  });
});
