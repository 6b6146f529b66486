import { examForecastSchema } from '../../http/api-schemas';
import { currentUser } from '../../http/authenticate';
import { deckIdParams } from '../../http/request-schemas';
import type { App } from '../../http/validation';
import { parseWeights } from '../review/scheduler';
import type { ExamForecastService } from './exam-forecast.service';

/** docs/api.md, "Exam date". */
export function examForecastRoutes(app: App, forecasts: ExamForecastService): void {
  app.get(
    '/decks/:id/exam-forecast',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'How ready the learner would be on the exam day',
        description:
          "At 04:00 of the deck's exam day in the user's time zone: the mean FSRS retrievability over every card " +
          "(unstudied cards count 0, the user's own parameters when fitted), the studied cards then below the " +
          "deck's desired retention, and the new cards a day that would introduce every unstudied card before the " +
          'exam day. 404 `no_exam_date` when the deck has none.',
        tags: ['Decks'],
        params: deckIdParams,
        response: { 200: examForecastSchema },
        errors: ['deck_not_found', 'no_exam_date'],
      },
    },
    async (request) => {
      const user = currentUser(request);
      return forecasts.forecast(user.id, request.params.id, user.time_zone, parseWeights(user.fsrs_parameters));
    },
  );
}
