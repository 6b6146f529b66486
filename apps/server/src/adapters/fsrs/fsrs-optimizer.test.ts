import { default_w } from 'ts-fsrs';
import { describe, expect, it } from 'vitest';
import { perturbedParameters, prng, reviewHistoriesOf, simulateLearner } from '../../../test/support/simulated-learner';
import { createFsrsOptimizer, OptimizerBusyError, type ReviewHistories } from './fsrs-optimizer';

/** A simulated learner's reviews in the optimizer's input shape. */
function histories(reviews: number, seed: number): ReviewHistories {
  return reviewHistoriesOf(simulateLearner(perturbedParameters(prng(seed)), reviews, prng(seed + 1)));
}

describe('the FSRS optimizer in a worker thread', () => {
  it('fits parameters that predict the learner better than the defaults, while the event loop keeps running', async () => {
    const optimizer = createFsrsOptimizer({ timeoutMs: 60_000 });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const result = await optimizer.fit(histories(1500, 3), default_w);
    clearInterval(timer);
    expect(result.parameters).toHaveLength(default_w.length);
    expect(result.items).toBeGreaterThan(500);
    expect(result.logLossPersonal).not.toBeNull();
    expect(result.logLossDefault).not.toBeNull();
    expect(result.logLossPersonal ?? 1).toBeLessThan(result.logLossDefault ?? 0);
    expect(ticks).toBeGreaterThan(0);
  });

  it('runs one fit at a time and refuses more than the queue holds', async () => {
    const optimizer = createFsrsOptimizer({ timeoutMs: 60_000, concurrency: 1, maxWaiting: 1 });
    const first = optimizer.fit(histories(600, 5), default_w);
    const second = optimizer.fit(histories(600, 7), default_w);
    await expect(optimizer.fit(histories(600, 9), default_w)).rejects.toBeInstanceOf(OptimizerBusyError);
    const [a, b] = await Promise.all([first, second]);
    expect(a.parameters).toHaveLength(default_w.length);
    expect(b.parameters).toHaveLength(default_w.length);
  });
});
