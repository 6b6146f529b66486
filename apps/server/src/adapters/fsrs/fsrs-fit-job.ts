/**
 * The entry of an FSRS fitting process (see fsrs-optimizer.ts): fits one learner's parameters with
 * @open-spaced-repetition/binding (fsrs-rs, the reference optimizer) and scores the default and the fitted parameters
 * on the same items (log loss). Native code runs here, where a panic, a hang or a blow-up ends this process only.
 */

import { computeParameters, FSRSBinding, FSRSBindingItem, FSRSBindingReview } from '@open-spaced-repetition/binding';
import { announceJobStart } from '../workers/process-pool';
import { yieldCpuToServer } from '../workers/worker-entry';
import type { FitResult, FitTask } from './fit-task';
import { trainingItems } from './training-items';

yieldCpuToServer();

function finiteOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The log loss of `parameters` on `items`, or null when fsrs-rs finds too little to score (NotEnoughData). */
function logLoss(parameters: number[], items: FSRSBindingItem[]): number | null {
  try {
    return finiteOrNull(new FSRSBinding(parameters).evaluate(items).logLoss);
  } catch {
    return null;
  }
}

export async function fit(task: FitTask): Promise<FitResult> {
  announceJobStart();
  const items = trainingItems(task.histories)
    .map((reviews) => new FSRSBindingItem(reviews.map((review) => new FSRSBindingReview(review.rating, review.deltaT))))
    // Kept as a second guard: trainingItems builds no item without a long-term interval.
    .filter((item) => item.longTermReviewCnt() > 0);
  const logLossDefault = items.length > 0 ? logLoss(task.defaults, items) : null;
  let parameters: number[] | null = null;
  let logLossPersonal: number | null = null;
  if (items.length > 0) {
    try {
      parameters = await computeParameters(items, { enableShortTerm: true, numRelearningSteps: 1 });
      logLossPersonal = logLoss(parameters, items);
    } catch {
      // fsrs-rs refuses histories it cannot fit (for example too few long-term reviews): the defaults stay.
      parameters = null;
    }
  }
  return { parameters, logLossDefault, logLossPersonal, items: items.length };
}
