import type { Kysely, Updateable } from 'kysely';
import type { Database } from '../../src/db/schema';

/** A user's plan and quota columns, as billing tests check them after a grant. */
export function billingFieldsOf(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('users')
    .select([
      'purchased_generations',
      'premium_quota',
      'premium_used',
      'plan_type',
      'subscription_id',
      'billing_customer_id',
      'subscription_end_date',
      'subscription_cancel_at_period_end',
    ])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
}

/** Sets a user's plan and quota columns straight in the database: the starting point of a quota test. */
export async function setBillingFields(
  db: Kysely<Database>,
  userId: string,
  fields: Updateable<Database['users']>,
): Promise<void> {
  await db.updateTable('users').set(fields).where('id', '=', userId).execute();
}

/** How many payments are recorded for a user. */
export async function paymentCountOf(db: Kysely<Database>, userId: string): Promise<number> {
  return (await db.selectFrom('payments').select('id').where('user_id', '=', userId).execute()).length;
}
