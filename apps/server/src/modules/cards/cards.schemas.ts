import { limits } from '@flashcards/shared/limits';
import { messages } from '@flashcards/shared/messages';
import { z } from 'zod';
import { cardSchema } from '../../http/api-schemas';
import { type ApiPaths, json, operation } from '../../http/openapi-legacy';
import { bodyWithId, boundedInt, cardIdParams, deckFilter, deckIdParams } from '../../http/request-schemas';
import { saveItemSchema } from '../notes/notes.schemas';

const side = z
  .string({ error: messages.cardSidesEmpty })
  .trim()
  .min(1, { error: messages.cardSidesEmpty })
  .max(limits.maxCardSideLength, { error: messages.cardSideTooLong });

/** A card's text: question and answer, both required. */
export const cardTextSchema = z.object({ question: side, answer: side });

/** POST /save-cards: the deck as `deck_id` (or `_id` / `id`) and 1 to 1000 cards or notes. */
export const saveCardsSchema = bodyWithId('deck_id', messages.noDeckSelected, {
  cards: z
    .array(saveItemSchema(cardTextSchema), { error: messages.noCardsSelected })
    .min(1, { error: messages.noCardsSelected })
    .max(limits.maxCardsPerSave, { error: messages.tooManyCards }),
});

/** A query-string whole number from `min` to `max` (digits only: no sign, no decimals, no repeats). */
const wholeNumber = (min: number, max: number, message: string) =>
  z
    .string({ error: message })
    .regex(/^[0-9]{1,9}$/, { error: message })
    .transform(Number)
    .pipe(boundedInt(min, max, message));

const cursor = z.string({ error: messages.cursorInvalid }).min(1, { error: messages.cursorInvalid }).max(200, {
  error: messages.cursorInvalid,
});

/** GET /decks/{id}/cards: the first page as an array without `limit`; a `cursor` comes with a `limit`. */
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
  deck_id: deckFilter,
  limit: wholeNumber(1, limits.maxSearchPage, messages.searchLimitInvalid).default(limits.defaultSearchPage),
  cursor: cursor.optional(),
});

/** docs/api.md, "Decks and cards". */
export const cardsPaths: ApiPaths = {
  '/decks/{id}/cards': {
    get: operation({
      summary: "A deck's cards, in creation order",
      tags: ['Cards'],
      auth: true,
      description:
        'Without `limit`: the first 500 cards as a plain array. With `limit` (and `cursor` from the previous page): ' +
        'one page with `next_cursor`.',
      params: deckIdParams,
      query: deckCardsQuerySchema,
      success: {
        status: 200,
        description: 'The cards, or `{ cards, next_cursor }` when paged',
        schema: z.union([
          z.array(cardSchema),
          z.object({ cards: z.array(cardSchema), next_cursor: z.string().nullable() }),
        ]),
      },
      errors: ['deck_not_found'],
    }),
  },
  '/cards/search': {
    get: operation({
      summary: 'Cards whose question or answer contain every word of `q` (prefixes match), best first',
      tags: ['Cards'],
      auth: true,
      query: searchQuerySchema,
      success: {
        status: 200,
        description: 'One page of matches',
        schema: z.object({
          cards: z.array(cardSchema.extend({ deck_name: z.string() })),
          next_cursor: z.string().nullable(),
        }),
      },
      errors: ['deck_not_found', 'rate_limited'],
    }),
  },
  '/save-cards': {
    post: operation({
      summary: 'Save cards into a deck, all or nothing',
      tags: ['Cards'],
      auth: true,
      body: json(saveCardsSchema),
      success: {
        status: 201,
        description: 'The saved cards',
        schema: z.object({ saved: z.int(), cards: z.array(cardSchema) }),
      },
      errors: ['deck_not_found'],
    }),
  },
  '/cards/{id}': {
    put: operation({
      summary: "Edit a card's question and answer",
      tags: ['Cards'],
      auth: true,
      params: cardIdParams,
      body: json(cardTextSchema),
      success: { status: 200, description: 'The card', schema: cardSchema },
      errors: ['card_not_found'],
    }),
    delete: operation({
      summary: 'Delete a card and its review history',
      tags: ['Cards'],
      auth: true,
      params: cardIdParams,
      success: { status: 204, description: 'Deleted' },
      errors: ['card_not_found'],
    }),
  },
};
