/** A day in milliseconds: 24 hours of UTC time, not a calendar day in a time zone (study-day.ts handles those). */
export const DAY_MS = 86_400_000;
