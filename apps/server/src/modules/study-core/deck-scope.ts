import { isId } from '../../adapters/ids';
import { errors } from '../../http/app-error';

/** What the services need to check a deck id: does the user have this deck? (DecksRepo.exists.) */
export interface DeckLookup {
  exists(userId: string, deckId: string): Promise<boolean>;
}

/** Where to look: every deck of the user, or one of them. */
export interface Scope {
  userId: string;
  deckId: string | null;
}

/** Throws deck_not_found unless `deckId` is one of the user's decks: malformed, missing and someone else's alike. */
export async function requireOwnDeck(decks: DeckLookup, userId: string, deckId: string): Promise<void> {
  if (!isId(deckId) || !(await decks.exists(userId, deckId))) throw errors.deckNotFound();
}

/** Every deck of the user when no deck is given, else that deck once it is theirs (deck_not_found otherwise). */
export async function deckScope(decks: DeckLookup, userId: string, deckId: string | undefined): Promise<Scope> {
  if (deckId === undefined) return { userId, deckId: null };
  await requireOwnDeck(decks, userId, deckId);
  return { userId, deckId };
}
