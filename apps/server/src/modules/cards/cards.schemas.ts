import { limits } from '@flashcards/shared/limits';
import { messages } from '@flashcards/shared/messages';
import { z } from 'zod';

const side = z
  .string({ error: messages.cardSidesEmpty })
  .trim()
  .min(1, { error: messages.cardSidesEmpty })
  .max(limits.maxCardSideLength, { error: messages.cardSideTooLong });

/** A card's text: question and answer, both required (product-spec.md section 5). */
export const cardTextSchema = z.object({ question: side, answer: side });

/** Ids may come as `deck_id`, `_id` or `id` (api-contract.md: requests accept `_id` or `id`). */
const withDeckIdAlias = (body: unknown) => {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const record = body as Record<string, unknown>;
  return { ...record, deck_id: record.deck_id ?? record._id ?? record.id };
};

export const saveCardsSchema = z.preprocess(
  withDeckIdAlias,
  z.object({
    deck_id: z.string({ error: messages.noDeckSelected }).trim().min(1, { error: messages.noDeckSelected }),
    cards: z
      .array(cardTextSchema, { error: messages.noCardsSelected })
      .min(1, { error: messages.noCardsSelected })
      .max(limits.maxCardsPerSave, { error: messages.tooManyCards }),
  }),
);

/** A query-string whole number from `min` to `max` (digits only: no sign, no decimals, no repeats). */
const wholeNumber = (min: number, max: number, message: string) =>
  z
    .string({ error: message })
    .regex(/^[0-9]{1,9}$/, { error: message })
    .transform(Number)
    .refine((value) => value >= min && value <= max, { error: message });

const cursor = z.string({ error: messages.cursorInvalid }).min(1, { error: messages.cursorInvalid }).max(200, {
  error: messages.cursorInvalid,
});

/** GET /decks/{id}/cards: unpaged without `limit`; a `cursor` comes with a `limit`. */
export const deckCardsQuerySchema = z
  .object({
    limit: wholeNumber(1, limits.maxCardsPage, messages.cardsPageLimitInvalid).optional(),
    cursor: cursor.optional(),
  })
  .refine((query) => query.cursor === undefined || query.limit !== undefined, {
    error: messages.cursorWithoutLimit,
    path: ['cursor'],
  });

/** GET /cards/search. */
export const searchQuerySchema = z.object({
  q: z
    .string({ error: messages.searchQueryInvalid })
    .max(limits.maxSearchLength, { error: messages.searchQueryInvalid })
    .trim()
    .min(1, { error: messages.searchQueryInvalid }),
  deck_id: z
    .string({ error: messages.deckNotFound })
    .optional()
    .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim())),
  limit: wholeNumber(1, limits.maxSearchPage, messages.searchLimitInvalid).default(limits.defaultSearchPage),
  cursor: cursor.optional(),
});
