// `npm run bench -- scheduling`: does fitting FSRS to a learner's own reviews beat the default parameters?
// 50 simulated learners (apps/server/test/support/simulated-learner.ts), each with true FSRS parameters unlike the
// defaults and 2,000 binary answers drawn from that model. The FSRS optimizer (fsrs-rs through
// @open-spaced-repetition/binding) is fitted on the first 80 % of each history (by time) and both parameter sets are
// scored on the last 20 % (log loss of the predicted recall, each prediction using the card's whole history before it).
// Then the optimizer's time for one 10,000-review history through the app's worker-thread adapter.
// LEARNERS=n and REVIEWS=n change the sizes.
import { performance } from 'node:perf_hooks';
import {
  computeParameters,
  FSRSBinding,
  FSRSBindingItem,
  FSRSBindingReview,
  type FSRSBindingItem as Item,
} from '@open-spaced-repetition/binding';
import { default_w } from 'ts-fsrs';
import { createFsrsOptimizer } from '../apps/server/src/adapters/fsrs/fsrs-optimizer';
import {
  perturbedParameters,
  prng,
  reviewHistoriesOf,
  type SimulatedReview,
  simulateLearner,
} from '../apps/server/test/support/simulated-learner';

const LEARNERS = Number(process.env.LEARNERS ?? 50);
const REVIEWS = Number(process.env.REVIEWS ?? 2000);
const TRAIN_SHARE = 0.8;

const out = (line: string) => process.stdout.write(`${line}\n`);

/** FSRS items (one per review after a card's first, with the card's history) split by the review's position. */
function itemsOf(log: SimulatedReview[], cutoff: number): { train: Item[]; test: Item[] } {
  const byCard = new Map<number, { day: number; rating: number; index: number }[]>();
  log.forEach((review, index) => {
    const list = byCard.get(review.card) ?? [];
    list.push({ day: review.day, rating: review.rating, index });
    byCard.set(review.card, list);
  });
  const train: Item[] = [];
  const test: Item[] = [];
  for (const reviews of byCard.values()) {
    const history: FSRSBindingReview[] = [];
    reviews.forEach((review, position) => {
      const previous = reviews[position - 1];
      history.push(new FSRSBindingReview(review.rating, previous ? review.day - previous.day : 0));
      if (position === 0) return;
      const item = new FSRSBindingItem(history.slice());
      (review.index < cutoff ? train : test).push(item);
    });
  }
  return { train, test };
}

function logLoss(parameters: number[], items: Item[]): number {
  return new FSRSBinding(parameters).evaluate(items.filter((item) => item.longTermReviewCnt() > 0)).logLoss;
}

async function main(): Promise<void> {
  out(
    `${LEARNERS} simulated learners, ${REVIEWS} binary reviews each; fit on the first 80 %, scored on the last 20 %.`,
  );
  const random = prng(2026);
  let better = 0;
  let sumDefault = 0;
  let sumFitted = 0;
  let fitMs = 0;
  for (let learner = 0; learner < LEARNERS; learner++) {
    const trueW = perturbedParameters(random);
    const log = simulateLearner(trueW, REVIEWS, random);
    const { train, test } = itemsOf(log, Math.floor(log.length * TRAIN_SHARE));
    const start = performance.now();
    const fitted = await computeParameters(train, { enableShortTerm: true, numRelearningSteps: 1 });
    fitMs += performance.now() - start;
    const lossDefault = logLoss([...default_w], test);
    const lossFitted = logLoss(fitted, test);
    sumDefault += lossDefault;
    sumFitted += lossFitted;
    if (lossFitted < lossDefault) better++;
    out(
      `  learner ${String(learner + 1).padStart(2)}: log loss default ${lossDefault.toFixed(4)}, fitted ${lossFitted.toFixed(4)}${lossFitted < lossDefault ? '' : '  (not better)'}`,
    );
  }
  out(
    `Mean log loss on the held-out 20 %: default ${(sumDefault / LEARNERS).toFixed(4)}, fitted ${(sumFitted / LEARNERS).toFixed(4)}`,
  );
  out(
    `Fitted parameters better than the defaults for ${better} of ${LEARNERS} learners (${((100 * better) / LEARNERS).toFixed(0)} %; goal 90 %).`,
  );
  out(`Mean fit time for ${Math.floor(REVIEWS * TRAIN_SHARE)} reviews: ${(fitMs / LEARNERS).toFixed(0)} ms.`);

  // One 10,000-review history through the app's adapter: a worker thread per fit, off the event loop.
  const big = simulateLearner(perturbedParameters(random), 10_000, random, 25);
  const optimizer = createFsrsOptimizer({ timeoutMs: 600_000 });
  let ticks = 0;
  const ticker = setInterval(() => ticks++, 10);
  const start = performance.now();
  const result = await optimizer.fit(reviewHistoriesOf(big), default_w);
  const elapsed = performance.now() - start;
  clearInterval(ticker);
  out(
    `Optimizer on a 10,000-review history (worker thread, fit and both scores): ${(elapsed / 1000).toFixed(2)} s; ` +
      `log loss default ${result.logLossDefault?.toFixed(4)}, fitted ${result.logLossPersonal?.toFixed(4)}; ` +
      `the event loop ran ${ticks} 10-ms timers meanwhile (${Math.round(elapsed / 10)} possible).`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
