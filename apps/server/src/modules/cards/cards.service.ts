import type { Card, SaveCardsResponse } from '@flashcards/shared/api-types';
import type { Clock } from '../../adapters/clock';
import { type IdGenerator, isId } from '../../adapters/ids';
import { errors } from '../../http/app-error';
import type { DecksRepo } from '../decks/decks.repo';
import type { UserLimits } from '../decks/user-limits';
import { newCardRow, toCard } from '../study-core/card-state';
import type { CardsRepo } from './cards.repo';

export interface CardsServiceDeps {
  cards: CardsRepo;
  decks: Pick<DecksRepo, 'exists'>;
  clock: Clock;
  newId: IdGenerator;
  userLimits: UserLimits;
}

type CardText = { question: string; answer: string };

/** Cards of one user. A card or deck id that is malformed, missing or someone else's is the same 404. */
export function createCardsService(deps: CardsServiceDeps) {
  const { cards, decks, clock } = deps;

  return {
    async listByDeck(userId: string, deckId: string): Promise<Card[]> {
      if (!isId(deckId) || !(await decks.exists(userId, deckId))) throw errors.deckNotFound();
      return (await cards.listByDeck(userId, deckId)).map(toCard);
    },

    /** Saves every card into the deck in one transaction, or none of them. */
    async save(userId: string, deckId: string, texts: CardText[]): Promise<SaveCardsResponse> {
      if (!isId(deckId)) throw errors.deckNotFound();
      await deps.userLimits.assertRoom(userId, { cards: texts.length });
      const now = clock.now();
      const rows = texts.map((text) => newCardRow({ id: deps.newId(), userId, deckId }, text, now));
      if (!(await cards.insertIntoDeck(userId, deckId, rows))) throw errors.deckNotFound();
      return { saved: rows.length, cards: rows.map(toCard) };
    },

    async update(userId: string, cardId: string, text: CardText): Promise<Card> {
      const row = isId(cardId) ? await cards.updateText(userId, cardId, text, clock.now()) : undefined;
      if (!row) throw errors.cardNotFound();
      return toCard(row);
    },

    async delete(userId: string, cardId: string): Promise<void> {
      const deleted = isId(cardId) && (await cards.delete(userId, cardId));
      if (!deleted) throw errors.cardNotFound();
    },
  };
}

export type CardsService = ReturnType<typeof createCardsService>;
