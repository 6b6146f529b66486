import { default_w } from 'ts-fsrs';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  historiesOf,
  perturbedParameters,
  prng,
  reviewHistoriesOf,
  simulateLearner,
} from '../../../test/support/simulated-learner';
import type { ReviewHistories } from './fit-task';
import { createFsrsOptimizer, OptimizerBusyError } from './fsrs-optimizer';

/** A simulated learner's reviews in the optimizer's input shape. */
function histories(reviews: number, seed: number): ReviewHistories {
  return reviewHistoriesOf(simulateLearner(perturbedParameters(prng(seed)), reviews, prng(seed + 1)));
}

/**
 * The audit's trigger (fsrs-panic-local.mjs): cards answered on several days, and cards answered more than once on
 * one day (the normal learning step). Items built from every review made fsrs-rs panic, which aborted the process.
 */
function mixedHistories(): ReviewHistories {
  const cards: [number, number][][] = [];
  for (let card = 0; card < 500; card++) {
    cards.push([
      [1, 0],
      [3, 0],
      [card % 4 ? 3 : 1, 1 + (card % 5)],
      [3, 8 + (card % 7)],
      [3, 8 + (card % 7)],
      [3, 30 + (card % 9)],
    ]);
  }
  cards.push([
    [1, 40],
    [3, 40],
    [3, 40],
  ]);
  return historiesOf(cards);
}

describe('the FSRS optimizer in a child process', () => {
  it('fits a mixed history of same-day repeats and long-term reviews with the real fsrs-rs (it aborted before)', async () => {
    const optimizer = createFsrsOptimizer({ timeoutMs: 60_000 });
    try {
      const result = await optimizer.fit(mixedHistories(), default_w);
      expect(result.parameters).toHaveLength(default_w.length);
      // 500 cards with reviews on 4 distinct days each: 3 items per card; the one-day card gives none.
      expect(result.items).toBe(1500);
      expect(result.logLossDefault).not.toBeNull();
      expect(result.logLossPersonal).not.toBeNull();
    } finally {
      await optimizer.close?.();
    }
  });

  it('fits parameters that predict the learner better than the defaults, while the event loop keeps running', async () => {
    const optimizer = createFsrsOptimizer({ timeoutMs: 60_000 });
    onTestFinished(() => optimizer.close?.());
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
    onTestFinished(() => optimizer.close?.());
    const first = optimizer.fit(histories(600, 5), default_w);
    const second = optimizer.fit(histories(600, 7), default_w);
    await expect(optimizer.fit(histories(600, 9), default_w)).rejects.toBeInstanceOf(OptimizerBusyError);
    const [a, b] = await Promise.all([first, second]);
    expect(a.parameters).toHaveLength(default_w.length);
    expect(b.parameters).toHaveLength(default_w.length);
  });
});
