import type { Kysely } from 'kysely';
import { type ParamOf, preparedFirst } from '../../db/prepared-query';
import type { Database } from '../../db/schema';

/**
 * The one way every repository reaches a deck or a card by its id: scoped by the owner's user_id, so another user's
 * row is simply not there. Add the columns (`.select(...)`) and run it; `db` may be a transaction.
 */
export function ownedDeck(db: Kysely<Database>, userId: string, deckId: string) {
  return db.selectFrom('decks').where('user_id', '=', userId).where('id', '=', deckId);
}

/** The user's card by id (see `ownedDeck`). */
export function ownedCard(db: Kysely<Database>, userId: string, cardId: string) {
  return db.selectFrom('cards').where('user_id', '=', userId).where('id', '=', cardId);
}

const ownedDeckId = preparedFirst<{ userId: string; deckId: string }, { id: string }>((db, param) =>
  ownedDeck(db, param('userId'), param('deckId')).select('id'),
);

/** True when the user has a deck with this id (most routes that name a deck ask: prepared once). */
export async function hasDeck(db: Kysely<Database>, userId: string, deckId: string): Promise<boolean> {
  return (await ownedDeckId(db, { userId, deckId })) !== undefined;
}

/** The parameters of a query over the cards in a Scope: the user, and one deck (or null for all of them). */
export interface ScopeParams extends Record<string, unknown> {
  userId: string;
  deckId: string | null;
}

/** Cards of the user, of one deck when `oneDeck` (the deckId parameter). */
export function cardsInScope(db: Kysely<Database>, param: ParamOf<ScopeParams>, oneDeck: boolean) {
  const query = db.selectFrom('cards').where('user_id', '=', param('userId'));
  return oneDeck ? query.where('deck_id', '=', param('deckId') as string) : query;
}
