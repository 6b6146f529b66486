import { messages } from '@flashcards/shared/messages';
import { z } from 'zod';
import { type ApiPaths, json, operation } from '../../http/openapi';
import { canonicalTimeZone } from '../study-core/study-day';

/** PUT /users/me/settings: `time_zone`, an IANA zone name; anything else is 422 invalid_time_zone. */
export const userSettingsSchema = z.object({
  time_zone: z
    .string({ error: messages.invalidTimeZone })
    .trim()
    .transform((value, context) => {
      const zone = canonicalTimeZone(value);
      if (zone === null) {
        context.addIssue({ code: 'custom', message: messages.invalidTimeZone });
        return z.NEVER;
      }
      return zone;
    }),
});

/** docs/api.md, "Accounts". */
export const userSettingsPaths: ApiPaths = {
  '/users/me/settings': {
    put: operation({
      summary: "Set the user's time zone (an IANA zone)",
      tags: ['Accounts'],
      auth: true,
      body: json(userSettingsSchema),
      success: { status: 200, description: 'The saved settings', schema: z.object({ time_zone: z.string() }) },
      errors: ['invalid_time_zone'],
    }),
  },
};
