/**
 * Runs `work` with a signal that aborts once `ms` have passed (the AI part of one generation or quiz). The work
 * decides what an abort means (providers throw AiTimeoutError).
 */
export async function withAbortDeadline<T>(ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  return await work(AbortSignal.timeout(ms));
}
