import type { ExpressionBuilder, Kysely } from 'kysely';
import { rowLimit } from '../../db/row-limit';
import type { Database } from '../../db/schema';
import { CardState } from './card-state';

/**
 * Siblings (the other cards of a note) are held back for the rest of the study day once one is answered, as Anki
 * buries them: set-based at answer time (cards.buried_until, migration 0012), so the queue stays one indexed query
 * that skips buried rows. Learning and relearning siblings are never held back.
 */

/** Holds back the answered card's new and long-term siblings until `until` (the next study day's start). */
export async function burySiblings(
  db: Kysely<Database>,
  card: { user_id: string; note_id: string; id: string },
  until: number,
): Promise<void> {
  await db
    .updateTable('cards')
    .set({ buried_until: until })
    .where('user_id', '=', card.user_id)
    .where('note_id', '=', card.note_id)
    .where('id', '<>', card.id)
    .where('state', 'in', [CardState.New, CardState.Review])
    .execute();
}

/**
 * After an answer is taken back: releases the card's siblings unless an answer of the note still stands today
 * (another card of it, or this card answered earlier today). Run it after the undone review is marked.
 */
export async function releaseSiblings(
  db: Kysely<Database>,
  card: { user_id: string; note_id: string; id: string },
  dayStart: number,
): Promise<void> {
  const standing = await db
    .selectFrom('review_logs')
    .select('review_logs.id')
    .where('review_logs.user_id', '=', card.user_id)
    .where('review_logs.reviewed_at', '>=', dayStart)
    .where('review_logs.undone_at', 'is', null)
    .where('review_logs.card_id', 'in', (eb) =>
      eb
        .selectFrom('cards')
        .select('cards.id')
        .where('cards.user_id', '=', card.user_id)
        .where('cards.note_id', '=', card.note_id),
    )
    .limit(rowLimit(1))
    .executeTakeFirst();
  if (standing) return;
  await db
    .updateTable('cards')
    .set({ buried_until: null })
    .where('user_id', '=', card.user_id)
    .where('note_id', '=', card.note_id)
    .where('id', '<>', card.id)
    .where('buried_until', 'is not', null)
    .execute();
}

/** A card not held back at `now`: a where-clause for the queue's reads of `cards`. */
export function notBuried(now: number) {
  return (eb: ExpressionBuilder<Database, 'cards'>) =>
    eb.or([eb('buried_until', 'is', null), eb('buried_until', '<=', now)]);
}
