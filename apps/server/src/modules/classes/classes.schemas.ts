import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { z } from 'zod';
import { bodyWithId } from '../../http/request-schemas';

/** The longest class name. */
export const MAX_CLASS_NAME_LENGTH = 100;

/** POST /classes: `{ name }`, not empty once trimmed. */
export const createClassSchema = z.object({
  name: z
    .string({ error: messages.classNameEmpty })
    .trim()
    .min(1, { error: messages.classNameEmpty })
    .max(MAX_CLASS_NAME_LENGTH, { error: serverMessages.classNameTooLong }),
});

/** POST /classes/join: `{ join_code }`; case, spaces and dashes aside (an unknown code is the service's 404). */
export const joinClassSchema = z.object({
  join_code: z
    .string({ error: messages.joinCodeEmpty })
    .max(64, { error: messages.classNotFound })
    .transform((code) => code.replace(/[\s-]/g, '').toUpperCase())
    .refine((code) => code.length > 0, { error: messages.joinCodeEmpty }),
});

/** POST /classes/{id}/decks: `{ deck_id }` (or `_id`, `id`), one of the teacher's own decks. */
export const assignDeckSchema = bodyWithId('deck_id', messages.noDeckSelected, {});

/** `{id}` in a path: a class's id (a malformed, unknown or foreign one is the same 404). */
export const classIdParams = z.object({ id: z.string().meta({ description: "The class's id" }) });

export const memberParams = z.object({
  id: z.string().meta({ description: "The class's id" }),
  user_id: z.string().meta({ description: "The student's user id" }),
});

/** GET /classes/{id}/progress.csv: which of the two tables. */
export const progressCsvQuery = z.object({
  table: z.enum(['students', 'cards'], { error: serverMessages.validationFailed }).default('students'),
});
