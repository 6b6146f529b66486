import type { CardViewRow } from '../study-core/card-state';
import type { Scope } from '../study-core/deck-scope';
import type { ReviewRepo } from './review.repo';

/** Queue order: earliest due first, then by id (creation order). */
export function byDueThenId(a: { due: number; id: string }, b: { due: number; id: string }): number {
  return a.due - b.due || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export type QueueReads = Pick<ReviewRepo, 'dueLearning' | 'dueReview' | 'deckLimits' | 'introducedSince' | 'newCards'>;

/**
 * The review queue rule (GET /cards/due, docs/api.md): learning and relearning cards that are due, then long-term
 * cards that are due, then new cards, each deck giving at most its daily new-card limit minus the new cards it
 * introduced since `dayStart`; at most `max` cards in all.
 */
export async function buildQueue(
  reviews: QueueReads,
  scope: Scope,
  now: number,
  dayStart: number,
  max: number,
): Promise<CardViewRow[]> {
  const learning = await reviews.dueLearning(scope, now, max);
  let room = max - learning.length;
  const due = room > 0 ? await reviews.dueReview(scope, now, room) : [];
  room -= due.length;
  if (room <= 0) return [...learning, ...due];
  const [decks, introduced] = await Promise.all([reviews.deckLimits(scope), reviews.introducedSince(scope, dayStart)]);
  const take = decks
    .map((deck) => ({
      deckId: deck.id,
      limit: Math.min(room, Math.max(0, deck.daily_new_card_limit - (introduced.get(deck.id) ?? 0))),
    }))
    .filter((deck) => deck.limit > 0);
  const fresh = (await reviews.newCards(scope.userId, take)).sort(byDueThenId).slice(0, room);
  return [...learning, ...due, ...fresh];
}
