import type { Scope } from '../study-core/deck-scope';
import type { QueueRow, ReviewRepo } from './review.repo';

/** Queue order: earliest due first, then by id (creation order). */
export function byDueThenId(a: { due: number; id: string }, b: { due: number; id: string }): number {
  return a.due - b.due || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export type QueueReads = Pick<ReviewRepo, 'dueCards' | 'newCardAllowance' | 'newCards'>;

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
): Promise<QueueRow[]> {
  const { learning, review } = await reviews.dueCards(scope, now, max);
  const due = [...learning, ...review].slice(0, max);
  const room = max - due.length;
  if (room <= 0) return due;
  const take = (await reviews.newCardAllowance(scope, dayStart))
    .map((deck) => ({ deckId: deck.deckId, limit: Math.min(room, Math.max(0, deck.dailyLimit - deck.introduced)) }))
    .filter((deck) => deck.limit > 0);
  const fresh = (await reviews.newCards(scope.userId, take, now)).sort(byDueThenId).slice(0, room);
  return [...due, ...fresh];
}
