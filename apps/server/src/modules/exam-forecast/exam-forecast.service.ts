import type { ExamForecast } from '@flashcards/shared/api-types';
import type { Clock } from '../../adapters/clock';
import { isId } from '../../adapters/ids';
import { errors } from '../../http/app-error';
import { retrievabilityAt, schedulerParametersFor } from '../review/scheduler';
import { calendarDateOf, examMoment } from '../study-core/exam-date';
import { dayNumberOf } from '../study-core/study-day';
import type { ExamForecastRepo } from './exam-forecast.repo';

export interface ExamForecastServiceDeps {
  repo: ExamForecastRepo;
  clock: Clock;
}

/** GET /decks/{id}/exam-forecast (docs/api.md, "Exam date"). */
export function createExamForecastService(deps: ExamForecastServiceDeps) {
  const { repo, clock } = deps;
  return {
    /**
     * How much of the deck the learner would recall at 04:00 of the exam day in `timeZone`: the mean FSRS
     * retrievability of every card (unstudied cards count 0) with the learner's `weights` (null: the defaults), the
     * studied cards below the deck's desired retention then, and how many new cards a day would introduce every
     * unstudied card before the exam day.
     */
    async forecast(
      userId: string,
      deckId: string,
      timeZone = 'UTC',
      weights: readonly number[] | null = null,
    ): Promise<ExamForecast> {
      const deck = isId(deckId) ? await repo.deck(userId, deckId) : undefined;
      if (!deck) throw errors.deckNotFound();
      if (deck.exam_date === null) throw errors.noExamDate();
      const retention = Number(deck.desired_retention);
      const parameters = schedulerParametersFor(weights, retention);
      const at = examMoment(deck.exam_date, timeZone);
      const { total, studied } = await repo.cards(userId, deckId);
      let recallSum = 0;
      let atRisk = 0;
      for (const card of studied) {
        const recall = retrievabilityAt(card, at, parameters);
        recallSum += recall;
        if (recall < retention) atRisk += 1;
      }
      const unstudied = Math.max(0, total - studied.length);
      const daysLeft = Math.max(0, dayNumberOf(deck.exam_date) - dayNumberOf(calendarDateOf(clock.now(), timeZone)));
      return {
        exam_date: deck.exam_date,
        days_left: daysLeft,
        predicted_recall: total === 0 ? 0 : recallSum / total,
        cards_total: total,
        cards_unstudied: unstudied,
        cards_at_risk: atRisk,
        // The days before the exam day (today counts); on the exam day itself whatever is left is today's.
        new_per_day: Math.ceil(unstudied / Math.max(1, daysLeft)),
      };
    },
  };
}

export type ExamForecastService = ReturnType<typeof createExamForecastService>;
