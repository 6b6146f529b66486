import { type CardRow, cardViewColumns } from './card-state';
import { type NewCardAllowance, newCardTakes } from './daily-limit';
import type { Scope } from './deck-scope';

/** The columns of a queued card: what the API shows, and the FSRS state its answer previews are computed from. */
export const queueColumns = [
  ...cardViewColumns,
  'stability',
  'difficulty',
  'scheduled_days',
  'learning_steps',
  'last_review',
] as const satisfies readonly (keyof CardRow)[];

/** A card of the review queue: its API view and its scheduling state. */
export type QueueRow = Pick<CardRow, (typeof queueColumns)[number]>;

/** Queue order: earliest due first, then by id (creation order). */
export function byDueThenId(a: { due: number; id: string }, b: { due: number; id: string }): number {
  return a.due - b.due || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The reads the queue is built from (review/due-queue.repo.ts). */
export interface QueueReads {
  /** Due learning and relearning cards (merged, at most `limit`) and due review cards (at most `limit`), each earliest first. */
  dueCards(scope: Scope, now: number, limit: number): Promise<{ learning: QueueRow[]; review: QueueRow[] }>;
  /** The decks in scope, oldest first, with their daily new-card limits and what each introduced since `since`. */
  newCardAllowance(scope: Scope, since: number): Promise<NewCardAllowance[]>;
  /** The first `limit` new cards of each deck, oldest first. */
  newCards(userId: string, take: { deckId: string; limit: number }[], now: number): Promise<QueueRow[]>;
}

/**
 * The review queue rule (GET /cards/due, docs/api.md): learning and relearning cards that are due, then long-term
 * cards that are due, then new cards, each deck giving at most its daily new-card limit (daily-limit.ts) minus the new
 * cards it introduced since `dayStart`; at most `max` cards in all.
 */
export async function buildQueue(
  reads: QueueReads,
  scope: Scope,
  now: number,
  dayStart: number,
  max: number,
): Promise<QueueRow[]> {
  const { learning, review } = await reads.dueCards(scope, now, max);
  const due = [...learning, ...review].slice(0, max);
  const room = max - due.length;
  if (room <= 0) return due;
  const take = newCardTakes(await reads.newCardAllowance(scope, dayStart), room);
  const fresh = (await reads.newCards(scope.userId, take, now)).sort(byDueThenId).slice(0, room);
  return [...due, ...fresh];
}
