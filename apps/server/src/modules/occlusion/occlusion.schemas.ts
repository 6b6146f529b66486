import { messages } from '@flashcards/shared/messages';
import { noteLimits } from '@flashcards/shared/notes';
import { z } from 'zod';

/** POST /occlusion/suggest: the name of one of the user's images (POST /media's `name`). */
export const suggestRequestSchema = z.object({
  media: z
    .string({ error: messages.occlusionMediaRequired })
    .min(1, { error: messages.occlusionMediaRequired })
    .max(noteLimits.maxMediaNameLength, { error: messages.occlusionMediaRequired })
    .meta({ description: "The name of one of the user's images (POST /media's `name`)" }),
});
