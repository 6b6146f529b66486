/** A day in milliseconds: 24 hours of UTC time, not a calendar day in a time zone (study-day.ts handles those). */
export const DAY_MS = 86_400_000;

/**
 * Epoch milliseconds as the API writes times: ISO 8601 in UTC, "2026-11-23T04:14:40.000Z", exactly what
 * `new Date(ms).toISOString()` gives, and what it throws for an invalid time.
 *
 * Written here with integer arithmetic (Howard Hinnant's days-to-civil algorithm), because `toISOString` formats
 * through printf and a due queue writes two times a card (docs/performance.md has the saving). Times outside years
 * 1970–9999 go to Date, which writes them.
 */
export function isoTime(ms: number): string {
  if (!(ms >= 0 && ms <= LAST_FOUR_DIGIT_MS) || !Number.isInteger(ms)) return new Date(ms).toISOString();
  const days = Math.floor(ms / DAY_MS);
  const inDay = ms - days * DAY_MS;
  // Days since 0000-03-01, in 400-year eras of 146,097 days; a year starts in March, so Feb 29 ends it.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const seconds = Math.floor(inDay / 1000);
  const millis = inDay - seconds * 1000;
  return (
    `${year}-${TWO_DIGITS[month]}-${TWO_DIGITS[day]}T${TWO_DIGITS[Math.floor(seconds / 3600)]}:` +
    `${TWO_DIGITS[Math.floor(seconds / 60) % 60]}:${TWO_DIGITS[seconds % 60]}.${THREE_DIGITS[millis]}Z`
  );
}

/** 9999-12-31T23:59:59.999Z: beyond it Date writes six-digit years. */
const LAST_FOUR_DIGIT_MS = 253_402_300_799_999;
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));
