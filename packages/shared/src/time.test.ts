import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTime } from './time';

/** What isoTime must equal: Date's own text, or the error Date throws. */
const dateText = (ms: number) => {
  try {
    return new Date(ms).toISOString();
  } catch (error) {
    return error instanceof Error ? `${error.name}: ${error.message}` : 'thrown';
  }
};
const isoText = (ms: number) => {
  try {
    return isoTime(ms);
  } catch (error) {
    return error instanceof Error ? `${error.name}: ${error.message}` : 'thrown';
  }
};

describe('isoTime', () => {
  it('writes what Date#toISOString writes for every time a Date can hold', () => {
    fc.assert(
      fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => {
        expect(isoText(ms)).toBe(dateText(ms));
      }),
      { seed: 20261123, numRuns: 20_000 },
    );
  });

  it('agrees on the edges: leap days, centuries, the turn of each year, the last four-digit year', () => {
    const edges = [
      0,
      Date.UTC(2000, 1, 29, 12),
      Date.UTC(2100, 1, 28, 23, 59, 59, 999),
      Date.UTC(2100, 2, 1),
      Date.UTC(2400, 1, 29),
      Date.UTC(2026, 11, 31, 23, 59, 59, 999),
      Date.UTC(2027, 0, 1),
      253_402_300_799_999,
      253_402_300_800_000,
      -1,
    ];
    for (const ms of edges) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    expect(isoTime(Date.UTC(2000, 1, 29, 4, 5, 6, 7))).toBe('2000-02-29T04:05:06.007Z');
  });

  it('every day from 1970 to 2200 at a time of day that moves', () => {
    const wrong: number[] = [];
    for (let day = 0; day < 84_000; day++) {
      const ms = day * 86_400_000 + ((day * 7_919_993) % 86_400_000);
      if (isoTime(ms) !== new Date(ms).toISOString()) wrong.push(ms);
    }
    expect(wrong).toEqual([]);
  });

  it('fractions, NaN and times beyond a Date: what Date does', () => {
    for (const ms of [1.5, 1_795_407_540_923.9, -0.5, Number.NaN, 8.64e15 + 1, Number.POSITIVE_INFINITY]) {
      expect(isoText(ms)).toBe(dateText(ms));
    }
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
  });
});
