import { type Expression, type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema';

/** Units taken from each bucket by one reservation. */
export interface Draw {
  premium: number;
  free: number;
  purchased: number;
}

export interface QuotaRow {
  quota_period: string;
  free_used: number;
  premium_quota: number;
  premium_used: number;
  purchased_generations: number;
  /** The monthly plan's premium quota counts only until this time (epoch ms); null without a subscription. */
  subscription_end_date: number | null;
  subscription_cancel_at_period_end: number;
  plan_type: string | null;
}

type Num = Expression<number> | RawBuilder<number>;
const lit = (value: number) => sql.lit(Math.trunc(value)) as RawBuilder<number>;
/** Portable min/max (SQLite has min()/max(), PostgreSQL least()/greatest()). */
const least = (a: Num, b: Num) => sql<number>`(case when ${a} < ${b} then ${a} else ${b} end)`;
const positive = (a: Num) => sql<number>`(case when ${a} > 0 then ${a} else 0 end)`;

/**
 * SQL for the quota columns of the users table. Every statement is filtered by the user's id, and reserve is
 * a single conditional UPDATE (check and take at once), so no number of concurrent requests, on one server or
 * several sharing a database, can spend more than the user has.
 */
export function createQuotaRepo(db: Kysely<Database>) {
  return {
    find(userId: string): Promise<QuotaRow | undefined> {
      return db
        .selectFrom('users')
        .select([
          'quota_period',
          'free_used',
          'premium_quota',
          'premium_used',
          'purchased_generations',
          'subscription_end_date',
          'subscription_cancel_at_period_end',
          'plan_type',
        ])
        .where('id', '=', userId)
        .executeTakeFirst();
    },

    /**
     * Takes `cost` units in draw order (monthly premium quota while the subscription lasts, then the free
     * allowance of `period`, then purchased generations) if the three together have enough. Returns the split,
     * or null when they do not. SET expressions all read the row as it was before this statement; RETURNING reads
     * this statement's result.
     */
    async reserve(
      userId: string,
      cost: number,
      period: string,
      freeAllowance: number,
      now: number,
    ): Promise<Draw | null> {
      const freeUsedNow = sql<number>`(case when quota_period = ${period} then free_used else 0 end)`;
      const premiumLeft = sql<number>`(case when subscription_end_date > ${lit(now)} then ${positive(sql<number>`(premium_quota - premium_used)`)} else 0 end)`;
      const freeLeft = positive(sql<number>`(${lit(freeAllowance)} - ${freeUsedNow})`);
      const takePremium = least(lit(cost), premiumLeft);
      const takeFree = least(sql<number>`(${lit(cost)} - ${takePremium})`, freeLeft);
      const takePurchased = sql<number>`(${lit(cost)} - ${takePremium} - ${takeFree})`;
      const row = await db
        .updateTable('users')
        .set({
          premium_used: sql`premium_used + ${takePremium}`,
          free_used: sql`${freeUsedNow} + ${takeFree}`,
          quota_period: period,
          purchased_generations: sql`purchased_generations - ${takePurchased}`,
          last_draw_premium: takePremium,
          last_draw_free: takeFree,
          last_draw_purchased: takePurchased,
        })
        .where('id', '=', userId)
        .where(sql<boolean>`${premiumLeft} + ${freeLeft} + ${positive(sql`purchased_generations`)} >= ${lit(cost)}`)
        .returning(['last_draw_premium', 'last_draw_free', 'last_draw_purchased'])
        .executeTakeFirst();
      if (!row) return null;
      return { premium: row.last_draw_premium, free: row.last_draw_free, purchased: row.last_draw_purchased };
    },

    /** Gives a reservation back to the buckets it came from. The free part only while its month lasts. */
    async refund(userId: string, draw: Draw, period: string): Promise<void> {
      await db
        .updateTable('users')
        .set({
          premium_used: positive(sql`(premium_used - ${lit(draw.premium)})`),
          free_used: sql`(case when quota_period = ${period} then ${positive(sql`(free_used - ${lit(draw.free)})`)} else free_used end)`,
          purchased_generations: sql`purchased_generations + ${lit(draw.purchased)}`,
        })
        .where('id', '=', userId)
        .execute();
    },
  };
}

export type QuotaRepo = ReturnType<typeof createQuotaRepo>;
