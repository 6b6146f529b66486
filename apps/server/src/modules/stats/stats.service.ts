import type { ForecastResponse, HistoryResponse } from '@flashcards/shared/api-types';
import type { Clock } from '../../adapters/clock';
import { type DeckLookup, deckScope, type Scope } from '../study-core/deck-scope';
import {
  addDays,
  dateOfDayNumber,
  dayNumberOf,
  offsetSegments,
  studyDateOf,
  studyDateStart,
} from '../study-core/study-day';
import type { StatsRepo } from './stats.repo';

export interface StatsServiceDeps {
  stats: StatsRepo;
  decks: DeckLookup;
  clock: Clock;
}

/** The signed-in user as the statistics need them. */
export interface Learner {
  id: string;
  time_zone: string;
}

const RETENTION_DAYS = 30;
/** A streak longer than the history asked for is followed back this many days per query. */
const STREAK_WINDOW = 366;

/** GET /stats/history and /stats/forecast, in the learner's study days (04:00 to 04:00 in their time zone). */
export function createStatsService(deps: StatsServiceDeps) {
  const { stats, decks, clock } = deps;

  /** Per study day (by day number) over `count` days ending with `last`. */
  const totalsOver = async (scope: Scope, last: string, count: number, zone: string) => {
    const first = addDays(last, -(count - 1));
    const from = studyDateStart(first, zone);
    const to = studyDateStart(addDays(last, 1), zone);
    const rows = await stats.historyByDay(scope, from, to, offsetSegments(from, to, zone));
    return new Map(rows.map((row) => [row.day, row]));
  };

  return {
    async history(learner: Learner, days: number, deckId: string | undefined): Promise<HistoryResponse> {
      const scope = await deckScope(decks, learner.id, deckId);
      const zone = learner.time_zone;
      const today = studyDateOf(clock.now(), zone);
      const span = Math.max(days, RETENTION_DAYS);
      const byDay = await totalsOver(scope, today, span, zone);
      const todayNumber = dayNumberOf(today);

      const list = Array.from({ length: days }, (_, index) => {
        const day = todayNumber - (days - 1) + index;
        const row = byDay.get(day);
        return {
          date: dateOfDayNumber(day),
          reviews: row?.reviews ?? 0,
          passed: row?.passed ?? 0,
          new_cards: row?.newCards ?? 0,
        };
      });

      let matureReviews = 0;
      let maturePassed = 0;
      for (const [day, row] of byDay) {
        if (day > todayNumber - RETENTION_DAYS) {
          matureReviews += row.matureReviews;
          maturePassed += row.maturePassed;
        }
      }

      // Consecutive days with a review, ending today, or yesterday when nothing was reviewed yet today.
      let cursor = byDay.has(todayNumber) ? todayNumber : todayNumber - 1;
      let streak = 0;
      let known = byDay;
      let windowStart = todayNumber - span + 1;
      while (known.has(cursor)) {
        streak++;
        cursor--;
        if (cursor < windowStart) {
          known = await totalsOver(scope, dateOfDayNumber(cursor), STREAK_WINDOW, zone);
          windowStart = cursor - STREAK_WINDOW + 1;
        }
      }

      return {
        time_zone: zone,
        days: list,
        streak_days: streak,
        retention_30d: matureReviews === 0 ? null : maturePassed / matureReviews,
        reviews_30d: matureReviews,
      };
    },

    async forecast(learner: Learner, days: number, deckId: string | undefined): Promise<ForecastResponse> {
      const scope = await deckScope(decks, learner.id, deckId);
      const zone = learner.time_zone;
      const today = studyDateOf(clock.now(), zone);
      const todayNumber = dayNumberOf(today);
      const todayEnd = studyDateStart(addDays(today, 1), zone);
      const end = studyDateStart(addDays(today, days), zone);
      const [overdue, later] = await Promise.all([
        stats.dueBefore(scope, todayEnd),
        end > todayEnd ? stats.dueByDay(scope, todayEnd, end, offsetSegments(todayEnd, end, zone)) : [],
      ]);
      const byDay = new Map(later.map((row) => [row.day, row.due]));
      return {
        time_zone: zone,
        days: Array.from({ length: days }, (_, index) => ({
          date: dateOfDayNumber(todayNumber + index),
          due: index === 0 ? overdue : (byDay.get(todayNumber + index) ?? 0),
        })),
      };
    },
  };
}

export type StatsService = ReturnType<typeof createStatsService>;
