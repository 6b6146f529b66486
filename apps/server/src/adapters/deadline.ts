/**
 * Runs `work` with a signal that aborts once `ms` have passed (the AI part of one generation or quiz); the timer
 * is cleared when the work settles. The work decides what an abort means (providers throw AiTimeoutError).
 */
export async function withAbortDeadline<T>(ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    return await work(controller.signal);
  } finally {
    clearTimeout(timer);
  }
}
