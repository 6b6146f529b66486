/**
 * The entry of a broker process (see isolated-runner.ts): it owns one pool of job processes (process-pool.ts) so
 * that the server itself never forks. Forking copies the page tables of the process that forks, and the server is
 * the largest process here: each fork of it stalled its event loop for tens of milliseconds. This process is small,
 * starts the job processes, watches their memory and kills them past their limits.
 *
 * Messages: the parent sends `run` and `abort`; this process answers `event` (anything the job sends on the way),
 * `result` or `failed` per job id, and `killed` when the pool killed a process (for the parent's log). It exits when
 * the parent goes away.
 */

import {
  createProcessPool,
  JobFailedError,
  type JobFailure,
  type PoolEntry,
  type ProcessPoolOptions,
} from './process-pool';

export type BrokerRequest = { type: 'run'; id: number; task: unknown } | { type: 'abort'; id: number };

export type BrokerReply =
  | { id: number; event: unknown }
  | { id: number; result: unknown }
  | { id: number; failed: 'busy' | JobFailure; message: string }
  | { killed: string };

export interface BrokerOptions {
  entry: PoolEntry;
  pool: Omit<ProcessPoolOptions, 'onKill'>;
}

const send = (reply: BrokerReply) => process.send?.(reply);

function serve(options: BrokerOptions): void {
  const pool = createProcessPool<unknown, unknown, unknown>(options.entry, {
    ...options.pool,
    onKill: (reason) => send({ killed: reason }),
  });
  const running = new Map<number, AbortController>();

  async function run(request: Extract<BrokerRequest, { type: 'run' }>) {
    const controller = new AbortController();
    running.set(request.id, controller);
    try {
      const result = await pool.run(request.task, {
        signal: controller.signal,
        onMessage: (event) => send({ id: request.id, event }),
      });
      send({ id: request.id, result });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      send({ id: request.id, failed: error instanceof JobFailedError ? error.failure : 'busy', message });
    } finally {
      running.delete(request.id);
    }
  }

  process.on('message', (request: BrokerRequest) => {
    if (request.type === 'abort') running.get(request.id)?.abort();
    else void run(request);
  });
  // The parent is gone (closed, or died): stop every job and leave.
  process.once('disconnect', () => {
    for (const controller of running.values()) controller.abort();
    void pool.close().finally(() => process.exit(0));
  });
}

serve(JSON.parse(process.argv[2] ?? '{}') as BrokerOptions);
