import { z } from 'zod';
import { currentUser } from '../../http/authenticate';
import type { App } from '../../http/validation';
import { userSettingsSchema } from './user-settings.schemas';
import type { UserSettingsService } from './user-settings.service';

/** PUT /users/me/settings: the learner's time zone (the study day runs 04:00 to 04:00 there). docs/api.md, "Accounts". */
export function userSettingsRoutes(app: App, settings: UserSettingsService): void {
  app.put(
    '/users/me/settings',
    {
      onRequest: app.authenticate,
      schema: {
        summary: "Set the user's time zone (an IANA zone)",
        tags: ['Accounts'],
        body: userSettingsSchema,
        response: { 200: z.object({ time_zone: z.string() }) },
        errors: ['invalid_time_zone'],
      },
    },
    async (request) => settings.update(currentUser(request).id, request.body),
  );
}
