import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { type AccessFields, fastAccessLine } from './access-log';

/** A pino root logger at the server's defaults, writing into an array. */
function capturingLogger() {
  const lines: string[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
  return { log, lines };
}

const withoutTime = (line: string) => line.replace(/"time":\d+/, '"time":0');

const fields: AccessFields = {
  reqId: '3f1c2b7e-8d4a-4e6f-9a1b-2c3d4e5f6a7b',
  method: 'GET',
  url: '/decks/stats',
  address: '127.0.0.1',
  statusCode: 200,
  responseTime: 0.4172,
};

describe('the fast access line', () => {
  it.each([
    ['a plain request', fields],
    [
      'a URL with quotes, backslashes, controls, NUL, emoji and a lone surrogate',
      {
        ...fields,
        url: '/cards?q="x"\\y\u0001\u0000\u007f\u2028😀\ud800&z=%ZZ',
      },
    ],
    ['a kept request id and another status', { ...fields, reqId: 'lb-42.abc', method: 'POST', statusCode: 422 }],
    ['no address (the socket already gone)', { ...fields, address: undefined }],
    ['an IPv6 address and a whole-number time', { ...fields, address: '::ffff:10.0.0.1', responseTime: 3 }],
  ])('writes what pino writes: %s', (_name, input) => {
    const { log, lines } = capturingLogger();
    log.info(input, 'request completed');
    const fast = fastAccessLine(log);
    expect(fast).not.toBeNull();
    fast?.(input);
    expect(lines).toHaveLength(2);
    expect(withoutTime(lines[1] as string)).toBe(withoutTime(lines[0] as string));
    expect(JSON.parse(lines[1] as string)).toMatchObject({ level: 30, msg: 'request completed', url: input.url });
  });

  it('is not used for a logger that is not pino', () => {
    const notPino = { level: 'info', info() {}, error() {}, warn() {}, debug() {}, fatal() {}, trace() {} };
    expect(fastAccessLine(notPino as never)).toBeNull();
  });
});
