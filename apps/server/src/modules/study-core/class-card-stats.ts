import { type Kysely, sql } from 'kysely';
import { preparedQuery } from '../../db/prepared-query';
import type { Database } from '../../db/schema';

/**
 * Class progress's rollup (migration 0021): per class and teacher's card, the reviews and "don't know" answers of
 * current students' linked copies, not undone. It moves in the transaction that writes or undoes a review, and a
 * student's whole share leaves it when their membership ends. The membership row is the lock both sides take
 * (a review updates it, a leaving student deletes it), so on PostgreSQL a review racing a removal is either counted
 * and then taken out, or never counted.
 */

/** A reviewed card: a linked copy's card names the teacher's card it copies (`source_card_id`). */
export interface ReviewedCard {
  user_id: string;
  deck_id: string;
  source_card_id: string | null;
}

/** Locks the student's membership of the class whose linked copy the deck is; its class id, none if not linked. */
const lockMembership = preparedQuery<{ userId: string; deckId: string }, { class_id: string }>((db, param) =>
  db
    .updateTable('class_members')
    .set((eb) => ({ joined_at: eb.ref('joined_at') }))
    .where('user_id', '=', param('userId'))
    .where('class_id', '=', (eb) =>
      eb
        .selectFrom('decks')
        .select('decks.class_id')
        .where('decks.id', '=', param('deckId'))
        .where('decks.user_id', '=', param('userId'))
        .where('decks.source_deck_id', 'is not', null),
    )
    .returning('class_id'),
);

/** Adds counts to the teacher's card's row of the class, if the teacher's card is still there. */
const addToClassCardStats = preparedQuery<{ cardId: string; classId: string; reviews: number; failed: number }, never>(
  (db, param) =>
    db
      .insertInto('class_card_stats')
      .columns(['card_id', 'class_id', 'reviews', 'failed'])
      .expression((eb) =>
        eb
          .selectFrom('cards as t')
          .select([
            't.id',
            sql<string>`cast(${param('classId')} as text)`.as('class_id'),
            sql<number>`cast(${param('reviews')} as integer)`.as('reviews'),
            sql<number>`cast(${param('failed')} as integer)`.as('failed'),
          ])
          .where('t.id', '=', param('cardId')),
      )
      .onConflict((conflict) =>
        conflict.columns(['card_id', 'class_id']).doUpdateSet((eb) => ({
          reviews: eb('class_card_stats.reviews', '+', eb.ref('excluded.reviews')),
          failed: eb('class_card_stats.failed', '+', eb.ref('excluded.failed')),
        })),
      ),
);

/**
 * Counts reviews of one card (negative counts take undone ones out) in its class's rollup, when the card is in a
 * current student's linked copy; nothing at all for any other card. Run it in the review's transaction.
 */
export async function countClassReviews(
  trx: Kysely<Database>,
  card: ReviewedCard,
  counts: { reviews: number; failed: number },
): Promise<void> {
  if (card.source_card_id === null || counts.reviews === 0) return;
  const [member] = await lockMembership(trx, { userId: card.user_id, deckId: card.deck_id });
  if (!member) return;
  await addToClassCardStats(trx, { cardId: card.source_card_id, classId: member.class_id, ...counts });
}

/**
 * Ends the user's membership of the class (of every class without `classId`) and takes their reviews out of those
 * classes' rollups, in one statement over their linked copies. Run it in a transaction, before the copies are
 * unlinked or deleted. The class rows are locked first so that two students leaving one class at once update its
 * rollup one after the other. Answers the classes left.
 */
export async function leaveClasses(trx: Kysely<Database>, userId: string, classId?: string): Promise<string[]> {
  const memberships = trx
    .selectFrom('class_members')
    .select('class_id')
    .where('user_id', '=', userId)
    .$if(classId !== undefined, (query) => query.where('class_id', '=', classId as string));
  await trx
    .updateTable('classes')
    .set((eb) => ({ name: eb.ref('name') }))
    .where('id', 'in', memberships)
    .execute();
  const left = await trx
    .deleteFrom('class_members')
    .where('user_id', '=', userId)
    .$if(classId !== undefined, (query) => query.where('class_id', '=', classId as string))
    .returning('class_id')
    .execute();
  const classIds = left.map((row) => row.class_id);
  if (classIds.length === 0) return [];
  const share = trx
    .selectFrom('review_logs as r')
    .innerJoin('decks as copy', 'copy.id', 'r.deck_id')
    .innerJoin('cards as c', 'c.id', 'r.card_id')
    .select((eb) => [
      'copy.class_id',
      'c.source_card_id as card_id',
      eb.fn.countAll<number>().as('reviews'),
      eb.fn.sum<number>(sql`case when r.rating = 1 then 1 else 0 end`).as('failed'),
    ])
    .where('copy.user_id', '=', userId)
    .where('copy.class_id', 'in', classIds)
    .where('copy.source_deck_id', 'is not', null)
    .where('r.undone_at', 'is', null)
    .where('c.source_card_id', 'is not', null)
    .groupBy(['copy.class_id', 'c.source_card_id']);
  await trx
    .updateTable('class_card_stats')
    .from(share.as('share'))
    .set((eb) => ({
      reviews: eb('class_card_stats.reviews', '-', eb.ref('share.reviews')),
      failed: eb('class_card_stats.failed', '-', eb.ref('share.failed')),
    }))
    .whereRef('class_card_stats.card_id', '=', 'share.card_id')
    .whereRef('class_card_stats.class_id', '=', 'share.class_id')
    .execute();
  return classIds;
}
