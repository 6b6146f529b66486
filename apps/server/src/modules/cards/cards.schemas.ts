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
