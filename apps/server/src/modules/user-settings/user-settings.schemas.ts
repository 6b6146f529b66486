import { serverMessages } from '@flashcards/shared/server-messages';
import { z } from 'zod';
import { failsWith } from '../../http/validation';
import { canonicalTimeZone } from '../study-core/study-day';

/** PUT /users/me/settings: `time_zone`, an IANA zone name; anything else is 422 invalid_time_zone. */
export const userSettingsSchema = failsWith(
  z.object({
    time_zone: z
      .string({ error: serverMessages.invalidTimeZone })
      .trim()
      .transform((value, context) => {
        const zone = canonicalTimeZone(value);
        if (zone === null) {
          context.addIssue({ code: 'custom', message: serverMessages.invalidTimeZone });
          return z.NEVER;
        }
        return zone;
      }),
  }),
  'invalid_time_zone',
);
