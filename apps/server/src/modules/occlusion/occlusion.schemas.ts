import { noteLimits } from '@flashcards/shared/notes';
import { serverMessages } from '@flashcards/shared/server-messages';
import { z } from 'zod';

/** POST /occlusion/suggest: the name of one of the user's images (POST /media's `name`). */
export const suggestRequestSchema = z.object({
  media: z
    .string({ error: serverMessages.occlusionMediaRequired })
    .min(1, { error: serverMessages.occlusionMediaRequired })
    .max(noteLimits.maxMediaNameLength, { error: serverMessages.occlusionMediaRequired })
    .meta({ description: "The name of one of the user's images (POST /media's `name`)" }),
});
