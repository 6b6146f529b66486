import type { FastifyInstance } from 'fastify';
import { AppError, errors } from '../../http/app-error';
import { currentUser } from '../../http/authenticate';
import { parseInput } from '../../http/validation';
import { userSettingsSchema } from './user-settings.schemas';
import type { UserSettingsService } from './user-settings.service';

/** PUT /users/me/settings: the learner's time zone (the study day runs 04:00 to 04:00 there). */
export function userSettingsRoutes(app: FastifyInstance, settings: UserSettingsService): void {
  app.put('/users/me/settings', { onRequest: app.authenticate }, async (request) => {
    let input: { time_zone: string };
    try {
      input = parseInput(userSettingsSchema, request.body);
    } catch (error) {
      // The contract's code for every refused zone (missing, not a string, unknown).
      if (error instanceof AppError && error.code === 'validation_failed') {
        throw errors.invalidTimeZone({ detail: error.detail, ...error.extra });
      }
      throw error;
    }
    return settings.update(currentUser(request).id, input);
  });
}
