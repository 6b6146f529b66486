import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../src/db/schema';

/** The tables whose rows tests read back by id. */
type TableWithId = 'users' | 'decks' | 'cards';

/** The row with this id, read straight from the database (to check what a request stored or left alone). */
export async function rowById<T extends TableWithId>(
  db: Kysely<Database>,
  table: T,
  id: string,
): Promise<Selectable<Database[T]>> {
  const row = await db
    .selectFrom(table as TableWithId)
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row as Selectable<Database[T]>;
}

/** How many answers this user has in the review log. */
export async function countReviewLogs(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('review_logs')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
