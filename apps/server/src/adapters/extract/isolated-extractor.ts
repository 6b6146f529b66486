import { type ChildProcess, fork } from 'node:child_process';
import { workerEntry } from '../workers/worker-entry';
import type { FileKind, FileSource, Passage } from './extracted';
import { UnreadableFileError } from './extracted';
import type { ExtractOptions, Extractor } from './extractor';
import type { BrokerOptions, BrokerReply, BrokerRequest } from './parser-broker';
import { ExtractorBusyError, type ParserPoolOptions } from './parser-pool';

export interface IsolatedExtractor extends Extractor {
  /** True when a file submitted now would be queued or run rather than refused as busy. */
  hasCapacity(): boolean;
  /** Starts the broker process now rather than with the first file (a server calls it when it starts listening). */
  warm(): void;
  close(): Promise<void>;
}

interface Pending {
  resolve: (passages: Passage[]) => void;
  reject: (error: Error) => void;
  onProgress: ExtractOptions['onProgress'];
}

/**
 * What the server uses to read uploaded files: every file is parsed in a process of its own (parser-pool.ts), and
 * those processes are started by a small broker process (parser-broker.ts), never by the server, whose forks were
 * the longest stalls of its event loop. This side only counts the work for `busy`, passes jobs and their results over
 * IPC, and restarts the broker if it ever dies (the jobs it held fail as unreadable, like a crashed parser's).
 */
export function createIsolatedExtractor(options: ParserPoolOptions): IsolatedExtractor {
  const { onKill, ...rest } = options;
  const brokerOptions: BrokerOptions = rest;
  const pending = new Map<number, Pending>();
  let broker: ChildProcess | null = null;
  let nextId = 1;
  let closed = false;
  // Files sent to the broker and not yet answered: what `busy` counts.
  const hasCapacity = () => pending.size < options.workers + options.queue;

  function failAll(error: Error) {
    for (const job of pending.values()) job.reject(error);
    pending.clear();
  }

  function start(): ChildProcess {
    if (broker) return broker;
    const entry = workerEntry(import.meta.url, 'parser-broker');
    const child = fork(entry.file, [JSON.stringify(brokerOptions)], {
      execArgv: [...entry.execArgv, '--max-old-space-size=128'],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', (reply: BrokerReply) => {
      if ('killed' in reply) return onKill?.(reply.killed);
      const job = pending.get(reply.id);
      if (!job) return;
      if ('progress' in reply) return job.onProgress?.(reply.progress);
      pending.delete(reply.id);
      if ('passages' in reply) job.resolve(reply.passages);
      else
        job.reject(
          reply.failed === 'busy' ? new ExtractorBusyError(reply.message) : new UnreadableFileError(reply.message),
        );
    });
    child.once('exit', (code, signal) => {
      if (broker === child) broker = null;
      if (!closed) onKill?.(`parser broker exited (${signal ?? code})`);
      failAll(new UnreadableFileError('parser broker exited'));
    });
    // An idle broker does not keep the server's process alive; a job in flight does (see extract).
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
    extract(kind: FileKind, file: FileSource, extractOptions: ExtractOptions = {}): Promise<Passage[]> {
      if (closed) return Promise.reject(new ExtractorBusyError('the server is shutting down'));
      if (!hasCapacity()) return Promise.reject(new ExtractorBusyError('parser queue full'));
      const child = start();
      const id = nextId++;
      child.channel?.ref();
      const onAbort = () => post({ type: 'abort', id });
      extractOptions.signal?.addEventListener('abort', onAbort, { once: true });
      return new Promise<Passage[]>((resolve, reject) => {
        pending.set(id, { resolve, reject, onProgress: extractOptions.onProgress });
        post({
          type: 'run',
          id,
          kind,
          file,
          ...(extractOptions.maxChars ? { maxChars: extractOptions.maxChars } : {}),
        });
      }).finally(() => {
        extractOptions.signal?.removeEventListener('abort', onAbort);
        if (pending.size === 0) broker?.channel?.unref();
      });
    },
    async close() {
      closed = true;
      const child = broker;
      broker = null;
      failAll(new ExtractorBusyError('the server is shutting down'));
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      // The broker stops its parsers and exits when its channel closes; killed if it does not within 5 s.
      child.disconnect();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
