import type { Kysely } from 'kysely';

// Account controls (issue 15): a token version per user (tokens carry it; bumping it ends every session), the time
// of the latest Google sign-in (deleting a Google-only account needs a recent one), and the payment records kept
// after an account is deleted (bookkeeping law), without anything that points back to the person.
// Immutable once landed: change the schema with a new migration.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('token_version', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('users').addColumn('google_signed_in_at', 'bigint').execute();
  await db.schema
    .createTable('retained_payments')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('provider', 'text', (col) => col.notNull())
    .addColumn('provider_payment_id', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('plan_type', 'text', (col) => col.notNull())
    .addColumn('amount_cents', 'integer', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('paid_at', 'bigint', (col) => col.notNull())
    .addColumn('account_deleted_at', 'bigint', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('retained_payments').execute();
  await db.schema.alterTable('users').dropColumn('google_signed_in_at').execute();
  await db.schema.alterTable('users').dropColumn('token_version').execute();
}
