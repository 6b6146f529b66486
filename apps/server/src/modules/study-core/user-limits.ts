import { fillMessage } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { AppError } from '../../http/app-error';

/** How many decks and cards the user has (the decks' counters; decks.repo's `usage`). */
export interface UsageReader {
  usage(userId: string): Promise<{ decks: number; cards: number }>;
}

export interface UserLimits {
  /** Refuses (422 too_many_decks / too_many_cards) when adding this many decks and cards would pass a cap. */
  assertRoom(userId: string, add: { decks?: number; cards?: number }): Promise<void>;
  /** The cards the user may still add (0 at or past the cap). */
  cardRoom(userId: string): Promise<number>;
}

/**
 * Per-user caps on decks and cards (MAX_DECKS_PER_USER, MAX_CARDS_PER_USER), checked before every insert that adds
 * them. The check reads the decks' counters, so it costs one small query; two requests racing at the cap may pass it
 * together, which overshoots by at most one request's worth (1,000 cards for a save, one file's cards for an
 * import), never without bound.
 */
export function createUserLimits(decks: UsageReader, caps: { maxDecks: number; maxCards: number }): UserLimits {
  return {
    async assertRoom(userId, add) {
      const usage = await decks.usage(userId);
      if ((add.decks ?? 0) > 0 && usage.decks + (add.decks ?? 0) > caps.maxDecks) {
        throw new AppError('too_many_decks', fillMessage(serverMessages.tooManyDecks, { max: caps.maxDecks }));
      }
      if ((add.cards ?? 0) > 0 && usage.cards + (add.cards ?? 0) > caps.maxCards) {
        throw new AppError('too_many_cards', fillMessage(serverMessages.tooManyCardsInAccount, { max: caps.maxCards }));
      }
    },
    async cardRoom(userId) {
      const usage = await decks.usage(userId);
      return Math.max(0, caps.maxCards - usage.cards);
    },
  };
}
