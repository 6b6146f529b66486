import { describe, expect, it } from 'vitest';
import { historiesOf } from '../../../test/support/simulated-learner';
import { trainingItems } from './training-items';

describe('trainingItems (FSRS items built as Anki builds them)', () => {
  it('keeps the first review of each day per card, so that every item ends on a long-term interval', () => {
    const items = trainingItems(
      historiesOf([
        // Failed then passed twice on day 0 (learning steps), then day 1, then twice on day 4.
        [
          [1, 0],
          [3, 0],
          [3, 0],
          [3, 1],
          [1, 4],
          [3, 4],
        ],
        // Only ever studied on one day: no item at all.
        [
          [1, 7],
          [3, 7],
        ],
      ]),
    );
    expect(items).toEqual([
      [
        { rating: 1, deltaT: 0 },
        { rating: 3, deltaT: 1 },
      ],
      [
        { rating: 1, deltaT: 0 },
        { rating: 3, deltaT: 1 },
        { rating: 1, deltaT: 3 },
      ],
    ]);
    expect(items.every((item) => (item.at(-1)?.deltaT ?? 0) > 0)).toBe(true);
  });

  it('makes nothing of an empty log', () => {
    expect(trainingItems(historiesOf([]))).toEqual([]);
  });
});
