import { type ChildProcess, fork } from 'node:child_process';
import type { BrokerOptions, BrokerReply, BrokerRequest } from './process-broker';
import {
  JobFailedError,
  PoolBusyError,
  type PoolEntry,
  type ProcessPoolOptions,
  type RunOptions,
} from './process-pool';
import { workerEntry } from './worker-entry';

export interface IsolatedRunner<Task, Result, Message = never> {
  run(task: Task, options?: RunOptions<Message>): Promise<Result>;
  /** True when a job submitted now would be queued or run rather than refused as busy. */
  hasCapacity(): boolean;
  /** Starts the broker process now rather than with the first job (a server calls it when it starts listening). */
  warm(): void;
  close(): Promise<void>;
}

interface Pending {
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
  onMessage: ((message: never) => void) | undefined;
}

/**
 * What the server uses to run untrusted work: every job runs in a process of its own (process-pool.ts), and those
 * processes are started by a small broker process (process-broker.ts), never by the server. This side only counts
 * the jobs for `busy`, passes jobs and their answers over IPC, and restarts the broker if it ever dies (the jobs it
 * held fail as crashed). `entry` is the job module, resolved like workerEntry (`url` is the caller's
 * import.meta.url), with the named export called per job and a label for the broker's command line.
 */
export function createIsolatedRunner<Task, Result, Message = never>(
  entry: { url: string; name: string; exportName: string; label: string },
  options: ProcessPoolOptions,
): IsolatedRunner<Task, Result, Message> {
  const { onKill, ...pool } = options;
  const jobModule = workerEntry(entry.url, entry.name);
  const poolEntry: PoolEntry = { ...jobModule, exportName: entry.exportName };
  const brokerOptions: BrokerOptions = { entry: poolEntry, pool };
  const pending = new Map<number, Pending>();
  let broker: ChildProcess | null = null;
  let nextId = 1;
  let closed = false;
  const hasCapacity = () => pending.size < options.workers + options.queue;

  function failAll(error: Error) {
    for (const job of pending.values()) job.reject(error);
    pending.clear();
  }

  function start(): ChildProcess {
    if (broker) return broker;
    const brokerEntry = workerEntry(import.meta.url, 'process-broker');
    // The label names the broker in `ps` and /proc (tests and benches find their brokers by it).
    const child = fork(brokerEntry.file, [JSON.stringify(brokerOptions), entry.label], {
      execArgv: [...brokerEntry.execArgv, '--max-old-space-size=128'],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', (reply: BrokerReply) => {
      if ('killed' in reply) return onKill?.(reply.killed);
      const job = pending.get(reply.id);
      if (!job) return;
      if ('event' in reply) return job.onMessage?.(reply.event as never);
      pending.delete(reply.id);
      if ('result' in reply) job.resolve(reply.result);
      else
        job.reject(
          reply.failed === 'busy' ? new PoolBusyError(reply.message) : new JobFailedError(reply.failed, reply.message),
        );
    });
    child.once('exit', (code, signal) => {
      if (broker === child) broker = null;
      if (!closed) onKill?.(`broker process exited (${signal ?? code})`);
      failAll(new JobFailedError('crashed', 'broker process exited'));
    });
    // An idle broker does not keep the server's process alive; a job in flight does (see run).
    child.unref();
    child.channel?.unref();
    broker = child;
    return child;
  }

  const post = (request: BrokerRequest) => {
    broker?.send(request);
  };

  return {
    hasCapacity,
    warm() {
      if (!closed) start();
    },
    run(task: Task, runOptions: RunOptions<Message> = {}): Promise<Result> {
      if (closed) return Promise.reject(new PoolBusyError('the server is shutting down'));
      if (!hasCapacity()) return Promise.reject(new PoolBusyError('queue full'));
      if (runOptions.signal?.aborted) return Promise.reject(new JobFailedError('crashed', 'aborted'));
      const child = start();
      const id = nextId++;
      child.channel?.ref();
      const onAbort = () => post({ type: 'abort', id });
      runOptions.signal?.addEventListener('abort', onAbort, { once: true });
      return new Promise<Result>((resolve, reject) => {
        pending.set(id, {
          resolve: resolve as (result: unknown) => void,
          reject,
          onMessage: runOptions.onMessage as ((message: never) => void) | undefined,
        });
        post({ type: 'run', id, task });
      }).finally(() => {
        runOptions.signal?.removeEventListener('abort', onAbort);
        if (pending.size === 0) broker?.channel?.unref();
      });
    },
    async close() {
      closed = true;
      const child = broker;
      broker = null;
      failAll(new PoolBusyError('the server is shutting down'));
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      // The broker stops its jobs and exits when its channel closes; killed if it does not within 5 s.
      child.disconnect();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
