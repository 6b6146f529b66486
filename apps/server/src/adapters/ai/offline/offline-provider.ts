import { Tinypool } from 'tinypool';
import { workerEntry } from '../../workers/worker-entry';
import type { AiProvider, CardDraft } from '../ai-provider';
import { AiTimeoutError } from '../ai-provider';
import type * as OfflineWorker from './offline-worker';

type Task = keyof typeof OfflineWorker;
type Runner = <T extends Task>(
  task: T,
  input: Parameters<(typeof OfflineWorker)[T]>[0],
  signal: AbortSignal,
) => Promise<CardDraft[]>;

/**
 * The generator in this process, loaded at the first call: the server runs it in workers only, so it never loads
 * the NLP model (and the worker module's lowered CPU priority) into its own process.
 */
const inProcess: Runner = async (task, input) => {
  const { cards, quiz } = await import('./offline-worker');
  return task === 'cards' ? cards(input as Parameters<typeof cards>[0]) : quiz(input as Parameters<typeof quiz>[0]);
};

/**
 * The built-in offline generator's work in `threads` long-lived worker processes (tinypool), so that a long text
 * never blocks the server's event loop; an aborted generation ends its worker (a new one is started). They are
 * all started at the first use and then kept: starting a process blocks the event loop for a moment, so it is
 * not done request after request.
 */
export function offlineWorkers(threads: number): Runner & { close(): Promise<void> } {
  const worker = workerEntry(import.meta.url, 'offline-worker');
  let pool: Tinypool | undefined;
  const run: Runner = (task, input, signal) => {
    pool ??= new Tinypool({
      runtime: 'child_process',
      filename: worker.file,
      execArgv: worker.execArgv,
      minThreads: threads,
      maxThreads: threads,
      serialization: 'advanced',
    });
    return pool.run(input, { name: task, signal });
  };
  return Object.assign(run, { close: async () => pool?.destroy() });
}

/**
 * The embedded default: the extractive generator, no network, no model. In this process (tests, tools), or
 * through `offlineWorkers` (the server).
 */
export function createOfflineProvider(run: Runner = inProcess): AiProvider {
  const call = async <T extends Task>(
    task: T,
    input: Parameters<(typeof OfflineWorker)[T]>[0],
    signal: AbortSignal,
  ) => {
    if (signal.aborted) throw new AiTimeoutError('generation deadline passed');
    try {
      return { cards: await run(task, input, signal) };
    } catch (error) {
      if (signal.aborted) throw new AiTimeoutError('generation deadline passed');
      throw error;
    }
  };
  return {
    name: 'offline',
    model: 'offline-extractive',
    // A chunk's cards are known at once (the generator is extractive), so they stream per chunk.
    async generateCards(input, signal, onCard) {
      const result = await call('cards', input, signal);
      for (const card of result.cards) onCard?.(card);
      return result;
    },
    generateQuiz: (input, signal) => call('quiz', input, signal),
  };
}
