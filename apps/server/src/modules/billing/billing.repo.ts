import { type Insertable, type Kysely, type Selectable, sql, type Transaction, type Updateable } from 'kysely';
import type { CheckoutSessionsTable, Database, PaymentsTable, UsersTable } from '../../db/schema';
import { setUserColumnOnce } from '../auth/users.repo';

export type PaymentRow = Selectable<PaymentsTable>;
type Executor = Kysely<Database> | Transaction<Database>;

/** SQL for billing: payments (the record behind every grant), checkouts we started, and the user's plan fields. */
export function createBillingRepo(db: Kysely<Database>) {
  return {
    /**
     * Records the payment and applies its grant in one transaction, exactly once per provider payment: the insert
     * does nothing when the (provider, payment id) pair is already recorded, so a replayed webhook, a second
     * verification or a racing request grants nothing more.
     */
    async grantOnce(payment: PaymentRow, grant: (trx: Transaction<Database>) => Promise<void>): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('payments')
          .values(payment)
          .onConflict((conflict) => conflict.columns(['provider', 'provider_payment_id']).doNothing())
          .executeTakeFirst();
        if (!inserted.numInsertedOrUpdatedRows) return false;
        await grant(trx);
        return true;
      });
    },

    addPurchasedGenerations(trx: Executor, userId: string, generations: number, planType: string, now: number) {
      return trx
        .updateTable('users')
        .set({
          purchased_generations: sql<number>`purchased_generations + ${generations}`,
          // A subscriber stays "monthly"; otherwise the plan shown is the last pack bought.
          plan_type: sql<string>`case when plan_type = 'monthly' then plan_type else ${planType} end`,
          updated_at: now,
        })
        .where('id', '=', userId)
        .execute();
    },

    /** Starts or renews the subscription period: full premium quota, usage back to zero. */
    startSubscriptionPeriod(
      trx: Executor,
      userId: string,
      fields: { quota: number; periodEnd: number; subscriptionId: string | null; customerId: string | null },
      now: number,
    ) {
      const set: Updateable<UsersTable> = {
        plan_type: 'monthly',
        premium_quota: fields.quota,
        premium_used: 0,
        subscription_end_date: fields.periodEnd,
        subscription_cancel_at_period_end: 0,
        updated_at: now,
      };
      if (fields.subscriptionId) set.subscription_id = fields.subscriptionId;
      if (fields.customerId) set.billing_customer_id = fields.customerId;
      return trx.updateTable('users').set(set).where('id', '=', userId).execute();
    },

    setCustomer(userId: string, customerId: string) {
      return setUserColumnOnce(db, userId, 'billing_customer_id', customerId);
    },

    /** Period end and cancel flag from the provider; access lasts until the period end either way. */
    updateSubscription(
      userId: string,
      subscriptionId: string,
      fields: { periodEnd: number; cancelAtPeriodEnd: boolean },
      now: number,
    ) {
      return db
        .updateTable('users')
        .set({
          subscription_end_date: fields.periodEnd,
          subscription_cancel_at_period_end: fields.cancelAtPeriodEnd ? 1 : 0,
          updated_at: now,
        })
        .where('id', '=', userId)
        .where('subscription_id', '=', subscriptionId)
        .execute();
    },

    /** The subscription ended: access ends at `endedAt` (never extended by a late event). */
    endSubscription(userId: string, subscriptionId: string, endedAt: number, now: number) {
      return db
        .updateTable('users')
        .set({
          subscription_end_date: sql<number>`case when subscription_end_date is null or subscription_end_date > ${endedAt} then ${endedAt} else subscription_end_date end`,
          subscription_cancel_at_period_end: 1,
          updated_at: now,
        })
        .where('id', '=', userId)
        .where('subscription_id', '=', subscriptionId)
        .execute();
    },

    findUserBySubscription(subscriptionId: string) {
      return db.selectFrom('users').select(['id']).where('subscription_id', '=', subscriptionId).executeTakeFirst();
    },

    findBillingFields(userId: string) {
      return db
        .selectFrom('users')
        .select(['id', 'email', 'billing_customer_id', 'subscription_id', 'plan_type'])
        .where('id', '=', userId)
        .executeTakeFirst();
    },

    recordCheckout(row: Insertable<CheckoutSessionsTable>) {
      return db.insertInto('checkout_sessions').values(row).execute();
    },

    /** A checkout this user started: by the provider's session id, or the latest (for a plan, if given). */
    findCheckout(userId: string, provider: 'stripe' | 'test', by: { sessionId?: string; planType?: string }) {
      let query = db
        .selectFrom('checkout_sessions')
        .selectAll()
        .where('user_id', '=', userId)
        .where('provider', '=', provider);
      if (by.sessionId) query = query.where('provider_session_id', '=', by.sessionId);
      if (by.planType) query = query.where('plan_type', '=', by.planType);
      return query.orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirst();
    },

    listPayments(userId: string) {
      return db
        .selectFrom('payments')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .execute();
    },
  };
}

export type BillingRepo = ReturnType<typeof createBillingRepo>;
