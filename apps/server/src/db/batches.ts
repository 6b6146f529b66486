/** Rows per INSERT and values per `IN (…)` list: well under both dialects' bound-parameter limits (17 columns a row). */
export const INSERT_BATCH = 500;

/** Runs `each` on consecutive slices of `items`, at most `size` long, one after the other (never two at once). */
export async function forEachBatch<T>(
  items: readonly T[],
  size: number,
  each: (batch: T[]) => Promise<void>,
): Promise<void> {
  for (let start = 0; start < items.length; start += size) await each(items.slice(start, start + size));
}
