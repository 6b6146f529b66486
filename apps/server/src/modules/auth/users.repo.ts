import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, UsersTable } from '../../db/schema';

export type UserRow = Selectable<UsersTable>;

/** SQL for the users table. A user row is only ever read by its own id, email or Google subject. */
export function createUsersRepo(db: Kysely<Database>) {
  return {
    findById(id: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },
    findByEmail(email: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
    },
    findByGoogleSub(sub: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('google_sub', '=', sub).executeTakeFirst();
    },
    async insert(row: Insertable<UsersTable>): Promise<void> {
      await db.insertInto('users').values(row).execute();
    },
    /** Sets the user's IANA time zone (already checked). */
    async setTimeZone(id: string, timeZone: string, now: number): Promise<void> {
      await db.updateTable('users').set({ time_zone: timeZone, updated_at: now }).where('id', '=', id).execute();
    },
    /** Links a Google subject to an account that has none yet; false if another sign-in linked one first. */
    async linkGoogle(id: string, sub: string, now: number): Promise<boolean> {
      const result = await db
        .updateTable('users')
        .set({ google_sub: sub, updated_at: now })
        .where('id', '=', id)
        .where('google_sub', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}

export type UsersRepo = ReturnType<typeof createUsersRepo>;
