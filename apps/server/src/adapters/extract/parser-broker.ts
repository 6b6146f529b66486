/**
 * The entry of the parser broker process (see isolated-extractor.ts): it owns the pool of parser processes
 * (parser-pool.ts) so that the server itself never forks. Forking copies the page tables of the process that forks,
 * and the server is the largest process here: each fork of it stalled its event loop for tens of milliseconds. This
 * process is small, starts the parser processes, polls their memory and kills them past their limits.
 *
 * Messages: the parent sends `run` and `abort`; this process answers `started`/`progress`/`passages`/`failed` per job
 * id, and `killed` when the pool killed a worker (for the parent's log). It exits when the parent goes away.
 */

import type { FileKind, FileSource, Passage } from './extracted';
import type { ExtractProgress } from './extractor';
import { createParserPool, ExtractorBusyError, type ParserPoolOptions } from './parser-pool';

export type BrokerRequest =
  | { type: 'run'; id: number; kind: FileKind; file: FileSource; maxChars?: number }
  | { type: 'abort'; id: number };

export type BrokerReply =
  | { id: number; progress: ExtractProgress }
  | { id: number; passages: Passage[] }
  | { id: number; failed: 'busy' | 'unreadable'; message: string }
  | { killed: string };

export type BrokerOptions = Omit<ParserPoolOptions, 'onKill'>;

const send = (reply: BrokerReply) => process.send?.(reply);

function serve(options: BrokerOptions): void {
  const pool = createParserPool({ ...options, onKill: (reason) => send({ killed: reason }) });
  const running = new Map<number, AbortController>();

  async function run(request: Extract<BrokerRequest, { type: 'run' }>) {
    const controller = new AbortController();
    running.set(request.id, controller);
    try {
      const passages = await pool.extract(request.kind, request.file, {
        signal: controller.signal,
        ...(request.maxChars ? { maxChars: request.maxChars } : {}),
        onProgress: (progress) => send({ id: request.id, progress }),
      });
      send({ id: request.id, passages });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      send({ id: request.id, failed: error instanceof ExtractorBusyError ? 'busy' : 'unreadable', message });
    } finally {
      running.delete(request.id);
    }
  }

  process.on('message', (request: BrokerRequest) => {
    if (request.type === 'abort') running.get(request.id)?.abort();
    else void run(request);
  });
  // The parent is gone (closed, or died): stop every parser and leave.
  process.once('disconnect', () => {
    for (const controller of running.values()) controller.abort();
    void pool.close().finally(() => process.exit(0));
  });
}

serve(JSON.parse(process.argv[2] ?? '{}') as BrokerOptions);
