import type { Kysely } from 'kysely';

// Billing: what each user bought (payments, one row per provider payment: the idempotency key of every grant),
// the checkouts we started, the subscription fields on users (the quota columns come from 0004), and the local
// test-mode provider's own state.
// Immutable once landed: change the schema with a new migration.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('plan_type', 'text').execute();
  await db.schema.alterTable('users').addColumn('subscription_id', 'text').execute();
  await db.schema.alterTable('users').addColumn('billing_customer_id', 'text').execute();
  await db.schema.alterTable('users').addColumn('subscription_end_date', 'bigint').execute();
  await db.schema
    .alterTable('users')
    .addColumn('subscription_cancel_at_period_end', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('users_subscription').on('users').column('subscription_id').execute();

  await db.schema
    .createTable('payments')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'text', (col) => col.notNull())
    // The checkout session or invoice id: unique, so a payment is granted exactly once.
    .addColumn('provider_payment_id', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('plan_type', 'text', (col) => col.notNull())
    .addColumn('amount_cents', 'integer', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('generations_granted', 'integer', (col) => col.notNull())
    .addColumn('provider_event_id', 'text')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addUniqueConstraint('payments_provider_payment', ['provider', 'provider_payment_id'])
    .execute();
  await db.schema.createIndex('payments_user_time').on('payments').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('checkout_sessions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'text', (col) => col.notNull())
    .addColumn('provider_session_id', 'text', (col) => col.notNull())
    .addColumn('plan_type', 'text', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addUniqueConstraint('checkout_sessions_provider_session', ['provider', 'provider_session_id'])
    .execute();
  await db.schema
    .createIndex('checkout_sessions_user_time')
    .on('checkout_sessions')
    .columns(['user_id', 'created_at'])
    .execute();

  // The local test-mode provider's state (what Stripe would keep on its side).
  await db.schema
    .createTable('test_checkout_sessions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('plan_type', 'text', (col) => col.notNull())
    .addColumn('amount_cents', 'integer', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('success_url', 'text', (col) => col.notNull())
    .addColumn('cancel_url', 'text', (col) => col.notNull())
    .addColumn('subscription_id', 'text')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('paid_at', 'bigint')
    .execute();
  await db.schema
    .createTable('test_subscriptions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('current_period_end', 'bigint', (col) => col.notNull())
    .addColumn('cancel_at_period_end', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['test_subscriptions', 'test_checkout_sessions', 'checkout_sessions', 'payments']) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.dropIndex('users_subscription').execute();
  for (const column of USER_COLUMNS) await db.schema.alterTable('users').dropColumn(column).execute();
}

const USER_COLUMNS = [
  'plan_type',
  'subscription_id',
  'billing_customer_id',
  'subscription_end_date',
  'subscription_cancel_at_period_end',
];
