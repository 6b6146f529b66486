import { DAY_MS } from '@flashcards/shared/time';
import { DateTime, IANAZone } from 'luxon';
import { isoTime } from '../../http/iso-time';

/**
 * The learner's study day (docs/api.md, "Rules the API keeps"): 04:00 to 04:00 in the user's IANA time zone,
 * Anki's default rollover. Daylight-saving changes are luxon's (a day may have 23 or 25 hours).
 */

export const ROLLOVER_HOUR = 4;
const ROLLOVER_MS = ROLLOVER_HOUR * 3_600_000;
/** review_stats buckets are quarter hours; every zone's UTC offset is a whole number of them. */
export const BUCKET_MS = 900_000;
const MAX_ZONE_LENGTH = 64;

let zoneSpellings: Map<string, string> | undefined;

/**
 * An IANA time zone as stored: the runtime's spelling when it lists the zone under another case ("europe/paris" →
 * "Europe/Paris"), else the name as given if the runtime knows it (aliases such as "Asia/Kolkata" stay as they are);
 * null when there is no such zone. Offsets such as "+05:00" are refused: they are not zones.
 */
export function canonicalTimeZone(name: string): string | null {
  if (name.length === 0 || name.length > MAX_ZONE_LENGTH || !/^[A-Za-z]/.test(name)) return null;
  zoneSpellings ??= new Map(
    [...Intl.supportedValuesOf('timeZone'), 'UTC'].map((zone) => [zone.toLowerCase(), zone] as const),
  );
  const spelled = zoneSpellings.get(name.toLowerCase());
  if (spelled !== undefined) return spelled;
  return IANAZone.isValidZone(name) ? name : null;
}

/** The study date ("YYYY-MM-DD") that instant `ms` falls in. */
export function studyDateOf(ms: number, zone: string): string {
  const local = DateTime.fromMillis(ms, { zone });
  return (local.hour < ROLLOVER_HOUR ? local.minus({ days: 1 }) : local).toISODate() ?? '';
}

/** When a study date begins: 04:00 local that calendar day (the next valid time if 04:00 is skipped). */
export function studyDateStart(date: string, zone: string): number {
  return DateTime.fromISO(date, { zone }).set({ hour: ROLLOVER_HOUR }).toMillis();
}

// The study day last computed per zone: every request in the same day asks for the same answer, and luxon's zone
// arithmetic is a measurable part of a review request.
const lastStudyDay = new Map<string, { start: number; end: number }>();
const MAX_REMEMBERED_ZONES = 1000;

/** The study day containing `ms`: its start and the next day's start. */
function studyDayOf(ms: number, zone: string): { start: number; end: number } {
  const known = lastStudyDay.get(zone);
  if (known && ms >= known.start && ms < known.end) return known;
  const date = studyDateOf(ms, zone);
  const day = { start: studyDateStart(date, zone), end: studyDateStart(addDays(date, 1), zone) };
  if (lastStudyDay.size >= MAX_REMEMBERED_ZONES) lastStudyDay.clear();
  lastStudyDay.set(zone, day);
  return day;
}

/** The start of the study day containing `ms`. */
export function studyDayStart(ms: number, zone: string): number {
  return studyDayOf(ms, zone).start;
}

/** The start of the study day after the one containing `ms` (when held-back siblings come back). */
export function nextStudyDayStart(ms: number, zone: string): number {
  return studyDayOf(ms, zone).end;
}

export function addDays(date: string, days: number): string {
  return DateTime.fromISO(date, { zone: 'UTC' }).plus({ days }).toISODate() ?? '';
}

/**
 * The number SQL computes for a study date: days since 1970-01-01 of (local time − 4 h). Its inverse is dateOfDayNumber.
 */
export function dayNumberOf(date: string): number {
  return Math.round(Date.parse(`${date}T00:00:00.000Z`) / DAY_MS);
}

export function dateOfDayNumber(day: number): string {
  return isoTime(day * DAY_MS).slice(0, 10);
}

/** A stretch of time over which the zone's UTC offset stays the same: from `from` (epoch ms) on, `offsetMs`. */
export interface OffsetSegment {
  from: number;
  offsetMs: number;
}

/** The zone's UTC offset at `ms` (luxon keeps one IANAZone, with its formatter, per name). */
function offsetAt(ms: number, zone: string): number {
  return IANAZone.create(zone).offset(ms) * 60_000;
}

/**
 * The zone's UTC offsets between `from` and `to`, split where they change. Offsets are sampled every 7 days (no zone
 * changes its offset twice within a week) and each change is pinned to its quarter hour by bisection (zones change
 * offset on quarter-hour boundaries).
 */
export function offsetSegments(from: number, to: number, zone: string): OffsetSegment[] {
  const step = 7 * DAY_MS;
  const segments: OffsetSegment[] = [{ from: Number.NEGATIVE_INFINITY, offsetMs: offsetAt(from, zone) }];
  let previous = from;
  let previousOffset = offsetAt(from, zone);
  for (let at = from + step; ; at += step) {
    const sample = Math.min(at, to);
    const offset = offsetAt(sample, zone);
    if (offset !== previousOffset) {
      let low = Math.floor(previous / BUCKET_MS);
      let high = Math.ceil(sample / BUCKET_MS);
      while (high - low > 1) {
        const middle = Math.floor((low + high) / 2);
        if (offsetAt(middle * BUCKET_MS, zone) === previousOffset) low = middle;
        else high = middle;
      }
      segments.push({ from: high * BUCKET_MS, offsetMs: offset });
      previousOffset = offset;
    }
    previous = sample;
    if (sample >= to) break;
  }
  return segments;
}

/** The study day number of instant `ms` with the zone's offset `offsetMs` (what the SQL expressions compute). */
export function dayNumberAt(ms: number, offsetMs: number): number {
  return Math.floor((ms + offsetMs - ROLLOVER_MS) / DAY_MS);
}
