import type { ReviewHistories } from './fit-task';

/** One review of an FSRS training item: the rating and the days since the card's previous kept review. */
export interface TrainingReview {
  rating: number;
  deltaT: number;
}

/**
 * The items fsrs-rs trains on, built the way Anki builds them: per card, only the first review of each study day is
 * kept (a same-day repeat is a learning step, not a memory test), and each kept review after the first makes one item
 * of the card's kept reviews up to it. Every item then ends on a review at least a day after the one before, so
 * none lacks a long-term interval (`delta_t > 0`): fsrs-rs panics on such an item, and the panic aborts the process.
 */
export function trainingItems({ ratings, days, cardStarts }: ReviewHistories): TrainingReview[][] {
  const items: TrainingReview[][] = [];
  for (let card = 0; card + 1 < cardStarts.length; card++) {
    const start = cardStarts[card] ?? 0;
    const end = cardStarts[card + 1] ?? start;
    const kept: TrainingReview[] = [];
    let previousDay: number | null = null;
    for (let index = start; index < end; index++) {
      const day = days[index] ?? 0;
      if (previousDay !== null && day <= previousDay) continue;
      kept.push({ rating: ratings[index] ?? 3, deltaT: previousDay === null ? 0 : day - previousDay });
      previousDay = day;
      if (kept.length > 1) items.push(kept.slice());
    }
  }
  return items;
}
