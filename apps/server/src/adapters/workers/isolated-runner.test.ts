import { afterAll, describe, expect, it } from 'vitest';
import type { Behaviour } from '../../../test/fixtures/containment-job';
import { allPids, childrenOf, commandOf, parentOf } from '../../../test/support/processes';
import { waitFor } from '../../../test/support/wait-for';
import { createIsolatedRunner } from './isolated-runner';
import { JobFailedError, PoolBusyError } from './process-pool';

const jobUrl = new URL('../../../test/fixtures/containment-job.ts', import.meta.url).href;
const kills: string[] = [];
const runner = createIsolatedRunner<{ behaviour: Behaviour; value?: number }, { value: number }, { note: string }>(
  { url: jobUrl, name: 'containment-job', exportName: 'run', label: 'containment-test-broker' },
  { workers: 2, queue: 1, timeoutMs: 3_000, memoryBytes: 256 * 1024 * 1024, onKill: (reason) => kills.push(reason) },
);

afterAll(async () => {
  await runner.close();
});

/** The job processes alive: children of this file's broker (found by its label among this process's children). */
function jobProcesses(): number[] {
  const brokers = new Set(childrenOf(process.pid).filter((pid) => commandOf(pid).includes('containment-test-broker')));
  return allPids().filter((pid) => brokers.has(parentOf(pid) ?? -1));
}

describe('the isolated runner (the containment of imports, FSRS fits and uploads)', () => {
  it('answers a job, passing on what the job sends before its answer', async () => {
    const notes: string[] = [];
    const result = await runner.run(
      { behaviour: 'answer', value: 21 },
      { onMessage: (message) => notes.push(message.note) },
    );
    expect(result).toEqual({ value: 42 });
    expect(notes).toEqual(['before the answer']);
  });

  it('kills a job that spins where no timer can interrupt it, at its deadline, and keeps serving', async () => {
    const spinning = runner.run({ behaviour: 'spin' });
    // Another job runs meanwhile, in its own process.
    await expect(runner.run({ behaviour: 'answer', value: 1 })).resolves.toEqual({ value: 2 });
    const failure = await spinning.catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(JobFailedError);
    expect((failure as JobFailedError).failure).toBe('timeout');
    expect(kills.some((reason) => reason.includes('longer than 3000 ms'))).toBe(true);
    await waitFor(() => jobProcesses().length === 0, 5_000);
  });

  it('kills a job past its resident-memory cap', async () => {
    const failure = await runner.run({ behaviour: 'allocate' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(JobFailedError);
    expect((failure as JobFailedError).failure).toBe('memory');
    expect(kills.some((reason) => /used \d+ MB, above the cap of 256 MB/.test(reason))).toBe(true);
  });

  it('loses only the job whose process aborts (as a native panic does), then runs the next', async () => {
    const failure = await runner.run({ behaviour: 'abort' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(JobFailedError);
    expect((failure as JobFailedError).failure).toBe('crashed');
    await expect(runner.run({ behaviour: 'answer', value: 5 })).resolves.toEqual({ value: 10 });
  });

  it('kills a job when its caller aborts (the client left), long before the deadline', async () => {
    const left = new AbortController();
    const spinning = runner.run({ behaviour: 'spin' }, { signal: left.signal });
    await new Promise((resolve) => setTimeout(resolve, 500));
    left.abort();
    const failure = await spinning.catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(JobFailedError);
    expect(kills.filter((reason) => reason.includes('longer than'))).toHaveLength(1);
    await waitFor(() => jobProcesses().length === 0, 5_000);
  });

  it('refuses a job beyond the running and waiting ones as busy', async () => {
    const running = [
      runner.run({ behaviour: 'spin' }),
      runner.run({ behaviour: 'spin' }),
      runner.run({ behaviour: 'spin' }),
    ];
    expect(runner.hasCapacity()).toBe(false);
    await expect(runner.run({ behaviour: 'answer' })).rejects.toBeInstanceOf(PoolBusyError);
    await Promise.allSettled(running);
  });
});
