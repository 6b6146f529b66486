import { limits } from '@flashcards/shared/limits';
import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { z } from 'zod';
import { cardSchema } from '../../http/api-schemas';
import { bodyWithId, boundedInt, deckFilter } from '../../http/request-schemas';
import { cardImagesSchema, cardSourceInput, saveItemSchema } from '../notes/notes.schemas';

const side = z
  .string({ error: messages.cardSidesEmpty })
  .trim()
  .min(1, { error: messages.cardSidesEmpty })
  .max(limits.maxCardSideLength, { error: serverMessages.cardSideTooLong });

/** A card's text: question and answer, both required. */
export const cardTextSchema = z.object({ question: side, answer: side });

/** POST /save-cards: the deck as `deck_id` (or `_id` / `id`) and 1 to 1000 cards or notes. */
export const saveCardsSchema = bodyWithId('deck_id', messages.noDeckSelected, {
  cards: z
    .array(saveItemSchema(cardTextSchema.extend({ images: cardImagesSchema, source: cardSourceInput.optional() })), {
      error: messages.noCardsSelected,
    })
    .min(1, { error: messages.noCardsSelected })
    .max(limits.maxCardsPerSave, { error: serverMessages.tooManyCards }),
});

/** A query-string whole number from `min` to `max` (digits only: no sign, no decimals, no repeats). */
const wholeNumber = (min: number, max: number, message: string) =>
  z
    .string({ error: message })
    .regex(/^[0-9]{1,9}$/, { error: message })
    .transform(Number)
    .pipe(boundedInt(min, max, message));

const cursor = z
  .string({ error: serverMessages.cursorInvalid })
  .min(1, { error: serverMessages.cursorInvalid })
  .max(200, {
    error: serverMessages.cursorInvalid,
  });

/** GET /decks/{id}/cards: the first page as an array without `limit`; a `cursor` comes with a `limit`. */
export const deckCardsQuerySchema = z
  .object({
    limit: wholeNumber(1, limits.maxCardsPage, serverMessages.cardsPageLimitInvalid).optional(),
    cursor: cursor.optional(),
  })
  .refine((query) => query.cursor === undefined || query.limit !== undefined, {
    error: serverMessages.cursorWithoutLimit,
    path: ['cursor'],
  });

/** GET /cards/search. */
export const searchQuerySchema = z.object({
  q: z
    .string({ error: serverMessages.searchQueryInvalid })
    .max(limits.maxSearchLength, { error: serverMessages.searchQueryInvalid })
    .trim()
    .min(1, { error: serverMessages.searchQueryInvalid }),
  deck_id: deckFilter,
  limit: wholeNumber(1, limits.maxSearchPage, serverMessages.searchLimitInvalid).default(limits.defaultSearchPage),
  cursor: cursor.optional(),
});

/** GET /decks/{id}/cards: a plain array without `limit`, one page with `limit`. */
export const deckCardsResponseSchema = z.union([
  z.array(cardSchema),
  z.object({ cards: z.array(cardSchema), next_cursor: z.string().nullable() }),
]);

export const searchResponseSchema = z.object({
  cards: z.array(cardSchema.extend({ deck_name: z.string() })),
  next_cursor: z.string().nullable(),
});

export const savedCardsSchema = z.object({
  saved: z.int(),
  cards: z.array(cardSchema),
  skipped_duplicates: z.int().meta({ description: 'Items left out: the same question and answer is in the deck' }),
});
