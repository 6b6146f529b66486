import { describe, expect, it } from 'vitest';
import { type AnswerOp, createAnswerQueue } from './answer-queue';

/** A request the test answers by hand, in any order. */
interface Pending {
  op: AnswerOp;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

class Offline extends Error {}
class Refused extends Error {}

/** Timers the test fires by hand, so that no test waits on the clock. */
function manualTimers() {
  const timers = new Map<number, { run: () => void; ms: number }>();
  let next = 1;
  return {
    setTimer: (run: () => void, ms: number) => {
      const id = next++;
      timers.set(id, { run, ms });
      return id;
    },
    clearTimer: (id: unknown) => {
      timers.delete(id as number);
    },
    pauses: () => [...timers.values()].map((timer) => timer.ms),
    fireAll() {
      const due = [...timers.entries()];
      timers.clear();
      for (const [, timer] of due) timer.run();
    },
  };
}

function setup(backoffMs: number[] = [500, 1_000]) {
  const requests: Pending[] = [];
  const sentLog: string[] = [];
  const dropped: AnswerOp[] = [];
  const timers = manualTimers();
  const queue = createAnswerQueue({
    send: (op) =>
      new Promise((resolve, reject) => {
        requests.push({ op, resolve, reject });
      }),
    isRetryable: (error) => error instanceof Offline,
    onSent: (op) => sentLog.push(label(op)),
    onDropped: (op) => dropped.push(op),
    backoffMs,
    setTimer: timers.setTimer,
    clearTimer: timers.clearTimer,
  });
  const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
  /** Answers the request in flight (the only one there can be). */
  async function reply(outcome: 'ok' | Error) {
    const request = requests.shift();
    if (!request) throw new Error('no request in flight');
    if (outcome === 'ok') request.resolve({ card: request.op.cardId });
    else request.reject(outcome);
    await settle();
  }
  return { queue, requests, sentLog, dropped, timers, reply, settle };
}

function label(op: AnswerOp): string {
  return op.kind === 'answer' ? `${op.cardId}:${op.result}` : `${op.cardId}:undo`;
}

const inFlight = (requests: Pending[]) => requests.map((request) => label(request.op));

describe('the answer queue', () => {
  it('sends one answer at a time, in the order given', async () => {
    const { queue, requests, sentLog, reply } = setup();
    queue.answer('a', 'pass');
    queue.answer('b', 'fail');
    queue.answer('c', 'pass');
    expect(inFlight(requests)).toEqual(['a:pass']);
    expect(queue.status()).toEqual({ pending: 3, failed: false });
    await reply('ok');
    expect(inFlight(requests)).toEqual(['b:fail']);
    await reply('ok');
    await reply('ok');
    expect(sentLog).toEqual(['a:pass', 'b:fail', 'c:pass']);
    expect(queue.status()).toEqual({ pending: 0, failed: false });
    await expect(queue.idle()).resolves.toBeUndefined();
  });

  it('tries a failed answer again after each pause, then stops, keeps every answer and says so until retried', async () => {
    const { queue, requests, sentLog, timers, reply } = setup([500, 1_000]);
    queue.answer('a', 'pass');
    queue.answer('b', 'fail');
    await reply(new Offline());
    expect(timers.pauses()).toEqual([500]);
    expect(requests).toEqual([]);
    timers.fireAll();
    expect(inFlight(requests)).toEqual(['a:pass']);
    await reply(new Offline());
    expect(timers.pauses()).toEqual([1_000]);
    timers.fireAll();
    await reply(new Offline());
    // Out of pauses: stopped, nothing lost, nothing sent out of order.
    expect(timers.pauses()).toEqual([]);
    expect(queue.status()).toEqual({ pending: 2, failed: true });
    expect(requests).toEqual([]);

    queue.retry();
    expect(queue.status()).toEqual({ pending: 2, failed: false });
    expect(inFlight(requests)).toEqual(['a:pass']);
    await reply('ok');
    await reply('ok');
    expect(sentLog).toEqual(['a:pass', 'b:fail']);
    expect(queue.status()).toEqual({ pending: 0, failed: false });
  });

  it('drops a request the server refuses for good and goes on with the next', async () => {
    const { queue, requests, dropped, sentLog, reply } = setup();
    queue.answer('gone', 'pass');
    queue.answer('b', 'pass');
    await reply(new Refused());
    expect(dropped.map(label)).toEqual(['gone:pass']);
    expect(inFlight(requests)).toEqual(['b:pass']);
    await reply('ok');
    expect(sentLog).toEqual(['b:pass']);
  });

  it('takes back an answer still waiting by removing it: nothing is sent for it', async () => {
    const { queue, requests, sentLog, reply } = setup();
    queue.answer('a', 'pass');
    const second = queue.answer('b', 'fail');
    expect(queue.takeBack(second)).toBe('removed');
    expect(queue.status().pending).toBe(1);
    await reply('ok');
    expect(requests).toEqual([]);
    expect(sentLog).toEqual(['a:pass']);
    expect(queue.takeBack(second)).toBe('unknown');
  });

  it('takes back an answer that stopped the queue after failing: the answers behind it go on', async () => {
    const { queue, sentLog, timers, reply } = setup([]);
    const first = queue.answer('a', 'pass');
    queue.answer('b', 'pass');
    await reply(new Offline());
    expect(queue.status()).toEqual({ pending: 2, failed: true });
    expect(queue.takeBack(first)).toBe('removed');
    expect(queue.status()).toEqual({ pending: 1, failed: false });
    expect(timers.pauses()).toEqual([]);
    await reply('ok');
    expect(sentLog).toEqual(['b:pass']);
  });

  it('takes back an answer already recorded with an undo request after it, and one in flight likewise', async () => {
    const { queue, requests, sentLog, reply } = setup();
    const first = queue.answer('a', 'pass');
    await reply('ok');
    expect(queue.takeBack(first)).toBe('undo_queued');
    expect(inFlight(requests)).toEqual(['a:undo']);
    await reply('ok');

    const second = queue.answer('b', 'fail');
    expect(inFlight(requests)).toEqual(['b:fail']);
    expect(queue.takeBack(second)).toBe('undo_queued');
    await reply('ok');
    expect(inFlight(requests)).toEqual(['b:undo']);
    await reply('ok');
    // Taken back once, an answer cannot be taken back again.
    expect(queue.takeBack(second)).toBe('unknown');
    expect(sentLog).toEqual(['a:pass', 'a:undo', 'b:fail', 'b:undo']);
  });
});
