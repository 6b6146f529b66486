import { limits } from '@flashcards/shared/limits';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { noteTypes } from '@flashcards/shared/notes';
import { serverMessages } from '@flashcards/shared/server-messages';
import { z } from 'zod';
import { bodyWithId } from '../../http/request-schemas';
import { mediaUrlPattern } from '../study-core/card-images';

/**
 * A note's fields: any JSON here, checked against its type by packages/shared/src/notes.ts (`checkNote`), whose
 * messages say which field breaks which rule; documented as the fields of each type.
 */
const fields = z.unknown().meta({
  description:
    'The fields of the type: `{ front, back }` (basic, reversed), `{ text, extra? }` (cloze, `text` holding ' +
    '`{{c1::answer}}` or `{{c1::answer::hint}}`, numbers 1 to 500)',
});

/** The type: one of the note types (occlusion is refused by the service until the image issue). */
const type = z.enum(noteTypes, { error: messages.noteTypeUnknown });

/** POST /notes: the deck (`deck_id`, `_id` or `id`), the type and its fields. */
export const createNoteSchema = bodyWithId('deck_id', messages.noDeckSelected, { type, fields });

/** PUT /notes/{id}: new fields (the type cannot change). */
export const updateNoteSchema = z.object({ fields });

/** `{id}` in a path: a note's id (a malformed, unknown or someone else's id is the same 404). */
export const noteIdParams = z.object({ id: z.string().meta({ description: "The note's id" }) });

/** A saved card's or note's images: at most 2 URLs of the user's uploads (`/media/{name}`), shown on the answer. */
export const cardImagesSchema = z
  .array(
    z
      .string({ error: serverMessages.cardImageInvalid })
      .regex(mediaUrlPattern, { error: serverMessages.cardImageInvalid }),
    {
      error: serverMessages.cardImageInvalid,
    },
  )
  .max(limits.maxCardImages, { error: fillMessage(serverMessages.cardImagesTooMany, { max: limits.maxCardImages }) })
  .optional();

/** Where a generated card came from, as POST /create gave it (docs/api.md, "Sources and duplicates"). */
export const cardSourceInput = z
  .object(
    {
      document: z
        .string({ error: serverMessages.cardSourceInvalid })
        .max(255, { error: serverMessages.cardSourceInvalid })
        .optional(),
      page: z
        .int({ error: serverMessages.cardSourceInvalid })
        .min(1, { error: serverMessages.cardSourceInvalid })
        .max(100_000)
        .optional(),
      slide: z
        .int({ error: serverMessages.cardSourceInvalid })
        .min(1, { error: serverMessages.cardSourceInvalid })
        .max(100_000)
        .optional(),
      // The longest quote POST /create gives: 2,000 characters and an ellipsis.
      quote: z
        .string({ error: serverMessages.cardSourceInvalid })
        .trim()
        .min(1, { error: serverMessages.cardSourceInvalid })
        .max(2001, { error: serverMessages.cardSourceInvalid }),
      paragraph: z
        .string({ error: serverMessages.cardSourceInvalid })
        .max(2000, { error: serverMessages.cardSourceInvalid })
        .optional(),
    },
    { error: serverMessages.cardSourceInvalid },
  )
  .strip();

/** An item of POST /save-cards that is a note: its type, its fields, and where it came from. */
export const noteItemSchema = z.object({
  type,
  fields,
  source: cardSourceInput.optional(),
  images: cardImagesSchema,
});

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * An item of POST /save-cards: `{ type, fields, source? }` (a note) when it has `type`, else `{ question, answer }`
 * (a basic note); each is checked by its own schema, so a broken item gets the rule it broke at its own field.
 */
export function saveItemSchema<T extends z.ZodType>(cardText: T) {
  return z
    .unknown()
    .transform((item, ctx) => {
      const parsed = isRecord(item) && 'type' in item ? noteItemSchema.safeParse(item) : cardText.safeParse(item);
      if (parsed.success) return parsed.data as z.output<typeof noteItemSchema> | z.output<T>;
      for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: 'custom', message: issue.message });
      return z.NEVER;
    })
    .meta({
      description: 'A card `{ question, answer }` (a basic note), or a note `{ type, fields, source? }`',
      override: { type: 'object' },
    });
}
