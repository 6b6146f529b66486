import { DAY_MS } from '@flashcards/shared/time';
import { DateTime } from 'luxon';
import type { SchedulingState } from './card-state';
import { addDays, studyDateStart } from './study-day';

/**
 * A deck's exam date (docs/api.md, "Exam date"): a calendar date in the learner's time zone. While it is ahead, no
 * studied card of the deck is scheduled past the exam: an answer given before the exam day's start (04:00 local)
 * is due by that start at the latest, so that every card comes back on or before the morning of the exam; an
 * answer given on the exam day itself is due by the day's end (04:00 the next day). Once the exam day is over the
 * date no longer caps anything.
 */

/** The learner's calendar date ("YYYY-MM-DD") at `now` in `zone`: what "today" means for an exam date. */
export function calendarDateOf(now: number, zone: string): string {
  return DateTime.fromMillis(now, { zone }).toISODate() ?? '';
}

/** Whether `examDate` is today or later in the learner's zone (a past exam date is refused). */
export function isExamDateAhead(examDate: string, now: number, zone: string): boolean {
  return examDate >= calendarDateOf(now, zone);
}

/** The instant at which the forecast measures recall: 04:00 of the exam day in the learner's zone. */
export function examMoment(examDate: string, zone: string): number {
  return studyDateStart(examDate, zone);
}

/** The latest a card answered at `at` may be due under `examDate` (null: the date caps nothing at that time). */
export function examDueCap(examDate: string | null, zone: string, at: number): number | null {
  if (examDate === null) return null;
  const dayStart = studyDateStart(examDate, zone);
  if (at < dayStart) return dayStart;
  const dayEnd = studyDateStart(addDays(examDate, 1), zone);
  return at < dayEnd ? dayEnd : null;
}

/** A due date `due` for a card answered at `at`, brought forward to the exam cap when it is later. */
export function capDue(due: number, examDate: string | null, zone: string, at: number): number {
  const cap = examDueCap(examDate, zone, at);
  return cap === null ? due : Math.min(due, cap);
}

/** When a card would next be due after each answer, as previewed at `at`, each brought forward to the exam cap. */
export function capPreview<P extends { pass: number; fail: number }>(
  preview: P,
  examDate: string | null,
  zone: string,
  at: number,
): P {
  return { ...preview, pass: capDue(preview.pass, examDate, zone, at), fail: capDue(preview.fail, examDate, zone, at) };
}

/**
 * The scheduler's next state for a card answered at `at`, brought forward to the exam cap when it would fall due
 * after it (its memory is left as FSRS computed it: an early review is one FSRS knows how to take).
 */
export function capAtExam<S extends SchedulingState>(next: S, examDate: string | null, zone: string, at: number): S {
  const due = capDue(next.due, examDate, zone, at);
  if (due === next.due) return next;
  return { ...next, due, scheduled_days: Math.max(0, Math.floor((due - at) / DAY_MS)) };
}
