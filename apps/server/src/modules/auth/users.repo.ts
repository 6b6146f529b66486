import type { Insertable, Kysely, Selectable } from 'kysely';
import { preparedFirst } from '../../db/prepared-query';
import type { Database, UsersTable } from '../../db/schema';
import { type SessionUser, sessionColumns } from '../../http/session-user';
import { leaveClasses } from '../study-core/class-card-stats';

export type UserRow = Selectable<UsersTable>;

/** The user columns that are set once and then kept: the billing customer, the media secret. */
export type SetOnceColumn = 'billing_customer_id' | 'media_secret';

/** Sets the column unless the user already has a value there: the first of two racing writers wins. */
export async function setUserColumnOnce(
  db: Kysely<Database>,
  userId: string,
  column: SetOnceColumn,
  value: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ [column]: value })
    .where('id', '=', userId)
    .where(column, 'is', null)
    .execute();
}

/** The user's media secret, made from `fresh` the first time (the first writer wins when two requests race). */
export async function userMediaSecret(db: Kysely<Database>, userId: string, fresh: string): Promise<string> {
  await setUserColumnOnce(db, userId, 'media_secret', fresh);
  const row = await db.selectFrom('users').select('media_secret').where('id', '=', userId).executeTakeFirst();
  return row?.media_secret ?? fresh;
}

const userById = preparedFirst<{ id: string }, UserRow>((db, param) =>
  db.selectFrom('users').selectAll().where('id', '=', param('id')),
);

const sessionUserById = preparedFirst<{ id: string }, SessionUser>((db, param) =>
  db.selectFrom('users').select(sessionColumns).where('id', '=', param('id')),
);

/** SQL for the users table. A user row is only ever read by its own id, email or Google subject. */
export function createUsersRepo(db: Kysely<Database>) {
  return {
    findById(id: string): Promise<UserRow | undefined> {
      return userById(db, { id });
    },
    /** Every authenticated request reads its user's session columns by id: prepared once. */
    findSessionUser(id: string): Promise<SessionUser | undefined> {
      return sessionUserById(db, { id });
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
    /**
     * Links a Google subject to an account that has none yet, removing its (unverified) password and ending its
     * sessions; false if another sign-in linked one first.
     */
    async linkGoogle(id: string, sub: string, now: number): Promise<boolean> {
      const result = await db
        .updateTable('users')
        .set((eb) => ({
          google_sub: sub,
          password_hash: null,
          token_version: eb('token_version', '+', 1),
          updated_at: now,
        }))
        .where('id', '=', id)
        .where('google_sub', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async touchGoogleSignIn(id: string, now: number): Promise<void> {
      await db.updateTable('users').set({ google_signed_in_at: now }).where('id', '=', id).execute();
    },
    /** Moves the token version on (every token issued before is refused); returns the new version. */
    async bumpTokenVersion(id: string, now: number): Promise<number> {
      const row = await db
        .updateTable('users')
        .set((eb) => ({ token_version: eb('token_version', '+', 1), updated_at: now }))
        .where('id', '=', id)
        .returning('token_version')
        .executeTakeFirstOrThrow();
      return row.token_version;
    },
    /** A new password hash and a new token version, in one statement; returns the new version. */
    async setPassword(id: string, passwordHash: string, now: number): Promise<number> {
      const row = await db
        .updateTable('users')
        .set((eb) => ({ password_hash: passwordHash, token_version: eb('token_version', '+', 1), updated_at: now }))
        .where('id', '=', id)
        .returning('token_version')
        .executeTakeFirstOrThrow();
      return row.token_version;
    },
    /**
     * Deletes the user and, through the foreign keys' ON DELETE CASCADE, every row that carries its id (decks,
     * cards, review log, shares, imports, quota, checkouts, media…); feedback it sent is deleted too. Payment records
     * are copied first into retained_payments, without the user id, email or any provider customer id.
     */
    async deleteAccount(id: string, now: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const paid = await trx.selectFrom('payments').selectAll().where('user_id', '=', id).execute();
        if (paid.length > 0) {
          await trx
            .insertInto('retained_payments')
            .values(
              paid.map((payment) => ({
                id: payment.id,
                provider: payment.provider,
                provider_payment_id: payment.provider_payment_id,
                kind: payment.kind,
                plan_type: payment.plan_type,
                amount_cents: payment.amount_cents,
                currency: payment.currency,
                status: payment.status,
                paid_at: payment.created_at,
                account_deleted_at: now,
              })),
            )
            .execute();
        }
        await trx.deleteFrom('feedback').where('user_id', '=', id).execute();
        await leaveClasses(trx, id);
        await trx.deleteFrom('users').where('id', '=', id).execute();
      });
    },
  };
}

export type UsersRepo = ReturnType<typeof createUsersRepo>;
