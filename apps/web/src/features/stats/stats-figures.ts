import type { HistoryDay } from '@flashcards/shared/api-types';

/** Pure helpers behind the statistics page (tested on their own). */

export interface MonthTotal {
  month: string;
  label: string;
  reviews: number;
  daysStudied: number;
}

// One formatter each, made once: toLocaleDateString builds a new one per call, and the page formats a few hundred dates.
const monthFormat = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const shortDateFormat = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
});

/** Reviews and days studied per calendar month, oldest first (the year heatmap's table). */
export function monthTotals(days: HistoryDay[]): MonthTotal[] {
  const months = new Map<string, MonthTotal>();
  for (const day of days) {
    const month = day.date.slice(0, 7);
    let total = months.get(month);
    if (!total) {
      const label = monthFormat.format(new Date(`${month}-01T00:00:00Z`));
      total = { month, label, reviews: 0, daysStudied: 0 };
      months.set(month, total);
    }
    total.reviews += day.reviews;
    if (day.reviews > 0) total.daysStudied += 1;
  }
  return [...months.values()];
}

/** "Mon 23 Nov" for a "2026-11-23" study date. */
export function shortDate(date: string): string {
  return shortDateFormat.format(new Date(`${date}T00:00:00Z`));
}

/** A heatmap cell: the week column, the weekday row (Monday 0) and the count. */
export interface HeatCell {
  x: number;
  y: number;
  v: number;
  date: string;
}

export function heatCells(days: HistoryDay[]): HeatCell[] {
  const first = days[0];
  if (!first) return [];
  const firstWeekday = (new Date(`${first.date}T00:00:00Z`).getUTCDay() + 6) % 7;
  return days.map((day, index) => {
    const position = firstWeekday + index;
    return { x: Math.floor(position / 7), y: position % 7, v: day.reviews, date: day.date };
  });
}

/** The share of a total as a whole percentage. */
export function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((100 * part) / whole);
}

/** How much better (positive) or worse the personal log loss is than the default, in whole percent. */
export function improvement(defaultLoss: number, personalLoss: number): number {
  return defaultLoss <= 0 ? 0 : Math.round((100 * (defaultLoss - personalLoss)) / defaultLoss);
}
