import { withIdAlias } from '@flashcards/shared/ids';
import { limits } from '@flashcards/shared/limits';
import { serverMessages } from '@flashcards/shared/server-messages';
import { z } from 'zod';

/**
 * Zod pieces that several modules' request schemas are built from, so each rule is written once: how an object's
 * id may be named in a body, the optional `deck_id` filter of a query, path ids, and bounded whole numbers.
 */

/** A whole number from `min` to `max`; every rule answers with `message`. */
export const boundedInt = (min: number, max: number, message: string) =>
  z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message });

/** A required id in a body: trimmed, `missing` when absent or blank (an unknown id is the service's 404). */
const requiredId = (missing: string) => z.string({ error: missing }).trim().min(1, { error: missing });

/**
 * A JSON body that names an object by `field` (`deck_id`, `card_id`), or, as docs/api.md allows, by `_id` or `id`;
 * `missing` when it names none. `shape` is the rest of the body.
 */
export function bodyWithId<F extends string, S extends z.ZodRawShape>(field: F, missing: string, shape: S) {
  return z.preprocess(
    withIdAlias(field),
    z.object({ [field]: requiredId(missing), ...shape } as Record<F, ReturnType<typeof requiredId>> & S),
  );
}

/** The optional `deck_id` filter of a query: blank is none; a malformed or someone else's id is the service's 404. */
export const deckFilter = z
  .string({ error: serverMessages.deckNotFound })
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

/** `{id}` in a path: a deck's id; a malformed, unknown or someone else's id is the same 404. */
export const deckIdParams = z.object({ id: z.string().meta({ description: "The deck's id" }) });

/** `{id}` in a path: a card's id (a malformed, unknown or someone else's id is the same 404). */
export const cardIdParams = z.object({ id: z.string().meta({ description: "The card's id" }) });

/** A typed answer (POST /cards/{id}/check, POST /cards/review): 1 to 1,000 characters, not only space. */
export const typedAnswerSchema = z
  .string({ error: serverMessages.typedAnswerInvalid })
  .max(limits.maxTypedAnswerLength, { error: serverMessages.typedAnswerInvalid })
  .refine((value) => value.trim() !== '', { error: serverMessages.typedAnswerInvalid });

/** The grader's verdict on a typed answer. */
export const verdictSchema = z.enum(['correct', 'close', 'wrong'], { error: serverMessages.verdictInvalid });
