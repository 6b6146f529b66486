import type { ReviewResult } from '@flashcards/shared/api-types';
import { fillMessage, messages } from '@flashcards/shared/messages';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

/**
 * An interval as Anki labels its answer buttons: whole minutes (at least 1), hours and days, months and years with one
 * decimal ("1 min", "10 min", "3 h", "4 d", "1.5 mo", "2 y").
 */
export function formatInterval(ms: number): string {
  // Each unit is chosen after rounding, so that 23 h 59 min reads "1 d", not "24 h".
  const minutes = Math.max(1, Math.round(ms / MINUTE));
  if (minutes < 60) return fillMessage(messages.intervalMinutes, { n: minutes });
  const hours = Math.round(ms / HOUR);
  if (hours < 24) return fillMessage(messages.intervalHours, { n: hours });
  const days = Math.round(ms / DAY);
  if (days < 30) return fillMessage(messages.intervalDays, { n: days });
  const months = Math.round((ms / MONTH) * 10) / 10;
  if (months < 12) return fillMessage(messages.intervalMonths, { n: months });
  return fillMessage(messages.intervalYears, { n: oneDecimal(ms / YEAR) });
}

function oneDecimal(value: number): string {
  return String(Math.round(value * 10) / 10);
}

/** "Don't know · 1 min": the grade and when it brings the card back (the grade alone while that is unknown). */
export function gradeLabel(result: ReviewResult, interval: number | null): string {
  const grade = result === 'pass' ? messages.reviewGradePass : messages.reviewGradeFail;
  return interval === null
    ? grade
    : fillMessage(messages.reviewGradeWithInterval, { grade, interval: formatInterval(interval) });
}
