/**
 * The daily new card limit is a whole number, never negative; what is not a number
 * becomes 0. "12" → 12, "7.9" → 7, "-3" → 0, "abc" or "" → 0. The upper bound is the server's to check.
 */
export function parseDailyLimit(input: string): number {
  const value = Number.parseInt(input.trim(), 10);
  return Number.isNaN(value) ? 0 : Math.max(0, value);
}
