/** What the server hands an FSRS fitting process (fsrs-fit-job.ts) and what it answers (fsrs-optimizer.ts). */

/** One learner's review log for a fit: per card, its binary ratings (1 Again, 3 Good) and study-day numbers. */
export interface ReviewHistories {
  ratings: Uint8Array;
  days: Int32Array;
  /** Reviews of card i are at [cardStarts[i], cardStarts[i + 1]); one more entry than there are cards. */
  cardStarts: Int32Array;
}

export interface FitResult {
  /** The fitted parameters, or null when the log had too little long-term history to fit. */
  parameters: number[] | null;
  /** Log loss of the default and the fitted parameters on the learner's own reviews (null when not computable). */
  logLossDefault: number | null;
  logLossPersonal: number | null;
  /** Training items (a card's first review of a day, at least a day after its previous one: see training-items.ts). */
  items: number;
}

/** One fit: the learner's histories and the default parameters to score the fit against. */
export interface FitTask {
  histories: ReviewHistories;
  defaults: number[];
}
