/**
 * Damerau–Levenshtein distance (optimal string alignment: insertions, deletions, substitutions and swaps of two
 * neighbours) between `a` and `b`, or `limit + 1` as soon as it is known to exceed `limit`. Only the diagonal band
 * of width 2·limit+1 is computed, so the cost is O(length · limit), never length².
 */
export function boundedEditDistance(a: string, b: string, limit: number): number {
  const x = Array.from(a);
  const y = Array.from(b);
  if (Math.abs(x.length - y.length) > limit) return limit + 1;
  if (x.length === 0 || y.length === 0) return Math.max(x.length, y.length);
  const over = limit + 1;
  const width = y.length + 1;
  // Three rows of the matrix (two back, for swaps); cells outside the band hold `over`.
  let before = new Array<number>(width).fill(over);
  let previous = new Array<number>(width).fill(over);
  let current = new Array<number>(width).fill(over);
  for (let j = 0; j <= Math.min(y.length, limit); j++) previous[j] = j;
  for (let i = 1; i <= x.length; i++) {
    const from = Math.max(1, i - limit);
    const to = Math.min(y.length, i + limit);
    // The rows are reused: only the cells next to the band, which this row and the next read, are reset.
    current[0] = i <= limit ? i : over;
    if (from > 1) current[from - 1] = over;
    let rowBest = over;
    for (let j = from; j <= to; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let cell = Math.min((previous[j] ?? over) + 1, (current[j - 1] ?? over) + 1, (previous[j - 1] ?? over) + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) {
        cell = Math.min(cell, (before[j - 2] ?? over) + 1);
      }
      current[j] = Math.min(cell, over);
      if (cell < rowBest) rowBest = cell;
    }
    if (to < y.length) current[to + 1] = over;
    if (Math.min(rowBest, current[0] ?? over) > limit) return over;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[y.length] ?? over, over);
}
