/** The one source of "now" for the server. Tests pass their own to travel through days. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
