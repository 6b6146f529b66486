import type { Insertable, Kysely } from 'kysely';
import type { Database, FeedbackTable } from '../../db/schema';

/** SQL for feedback: written, never read back by the API. */
export function createFeedbackRepo(db: Kysely<Database>) {
  return {
    async insert(row: Insertable<FeedbackTable>): Promise<void> {
      await db.insertInto('feedback').values(row).execute();
    },
  };
}

export type FeedbackRepo = ReturnType<typeof createFeedbackRepo>;
