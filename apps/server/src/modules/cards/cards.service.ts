import type { Card, SaveCardsResponse } from '@flashcards/shared/api-types';
import type { Clock } from '../../adapters/clock';
import { type IdGenerator, isId } from '../../adapters/ids';
import { appError } from '../../http/app-error';
import type { DecksRepo } from '../decks/decks.repo';
import { deckNotFound } from '../decks/decks.service';
import type { UserLimits } from '../decks/user-limits';
import { newCardState } from '../review/scheduler';
import { toCard } from './card-view';
import type { CardsRepo, NewCardRow } from './cards.repo';

export interface CardsServiceDeps {
  cards: CardsRepo;
  decks: DecksRepo;
  clock: Clock;
  newId: IdGenerator;
  userLimits: UserLimits;
}

export const cardNotFound = () => appError(404, 'card_not_found', 'cardNotFound');

type CardText = { question: string; answer: string };

/** A new card row: FSRS state "new", due from its creation. */
export function newCardRow(ids: { id: string; userId: string; deckId: string }, text: CardText, now: number) {
  return {
    id: ids.id,
    user_id: ids.userId,
    deck_id: ids.deckId,
    question: text.question,
    answer: text.answer,
    ...newCardState(now),
    first_reviewed_at: null,
    created_at: now,
    updated_at: now,
  } satisfies NewCardRow;
}

/** Cards of one user. A card or deck id that is malformed, missing or someone else's is the same 404. */
export function createCardsService(deps: CardsServiceDeps) {
  const { cards, decks, clock } = deps;

  return {
    async listByDeck(userId: string, deckId: string): Promise<Card[]> {
      if (!isId(deckId) || !(await decks.exists(userId, deckId))) throw deckNotFound();
      return (await cards.listByDeck(userId, deckId)).map(toCard);
    },

    /** Saves every card into the deck in one transaction, or none of them. */
    async save(userId: string, deckId: string, texts: CardText[]): Promise<SaveCardsResponse> {
      if (!isId(deckId)) throw deckNotFound();
      await deps.userLimits.assertRoom(userId, { cards: texts.length });
      const now = clock.now();
      const rows = texts.map((text) => newCardRow({ id: deps.newId(), userId, deckId }, text, now));
      if (!(await cards.insertIntoDeck(userId, deckId, rows))) throw deckNotFound();
      return { saved: rows.length, cards: rows.map(toCard) };
    },

    async update(userId: string, cardId: string, text: CardText): Promise<Card> {
      const row = isId(cardId) ? await cards.updateText(userId, cardId, text, clock.now()) : undefined;
      if (!row) throw cardNotFound();
      return toCard(row);
    },

    async delete(userId: string, cardId: string): Promise<void> {
      const deleted = isId(cardId) && (await cards.delete(userId, cardId));
      if (!deleted) throw cardNotFound();
    },
  };
}

export type CardsService = ReturnType<typeof createCardsService>;
