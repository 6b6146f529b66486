// The FSRS optimizer's worker thread (plain JavaScript so that Node runs it as-is, under tsx, Vitest or a build).
// It receives one learner's review histories, fits FSRS parameters with @open-spaced-repetition/binding (fsrs-rs, the
// reference optimizer) and scores the default and the fitted parameters on the same histories (log loss).
// Message in: { ratings: Uint8Array, days: Int32Array, cardStarts: Int32Array, defaults: number[] | null }
//   (reviews of card i are ratings[cardStarts[i]..cardStarts[i+1]), days are study-day numbers).
// Message out: { ok: true, parameters: number[] | null, logLossDefault, logLossPersonal, items } or { ok: false, error }.
import { parentPort } from 'node:worker_threads';
import { computeParameters, FSRSBinding, FSRSBindingItem, FSRSBindingReview } from '@open-spaced-repetition/binding';

/** One FSRS item per review after a card's first: the card's reviews up to and including that one. */
function toItems({ ratings, days, cardStarts }) {
  const items = [];
  for (let card = 0; card + 1 < cardStarts.length; card++) {
    const start = cardStarts[card];
    const end = cardStarts[card + 1];
    const reviews = [];
    for (let index = start; index < end; index++) {
      const deltaT = index === start ? 0 : Math.max(0, days[index] - days[index - 1]);
      reviews.push(new FSRSBindingReview(ratings[index], deltaT));
      if (index > start) items.push(new FSRSBindingItem(reviews.slice()));
    }
  }
  return items;
}

function finiteOrNull(value) {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The log loss of `parameters` on `items`, or null when fsrs-rs finds too little to score (NotEnoughData). */
function logLoss(parameters, items) {
  try {
    return finiteOrNull(new FSRSBinding(parameters).evaluate(items).logLoss);
  } catch {
    return null;
  }
}

parentPort.on('message', async (input) => {
  try {
    const items = toItems(input);
    const usable = items.filter((item) => item.longTermReviewCnt() > 0);
    const logLossDefault = usable.length > 0 ? logLoss(input.defaults, usable) : null;
    let parameters = null;
    let logLossPersonal = null;
    if (usable.length > 0) {
      try {
        parameters = await computeParameters(items, { enableShortTerm: true, numRelearningSteps: 1 });
        logLossPersonal = logLoss(parameters, usable);
      } catch {
        // fsrs-rs refuses histories it cannot fit (for example too few long-term reviews): the defaults stay.
        parameters = null;
      }
    }
    parentPort.postMessage({ ok: true, parameters, logLossDefault, logLossPersonal, items: usable.length });
  } catch (error) {
    parentPort.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) });
  }
});
