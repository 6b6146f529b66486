import { describe, expect, it } from 'vitest';
import { setBillingFields } from '../../../test/support/billing';
import { signUpAndLogIn } from '../../../test/support/factories';
import { useTestApp } from '../../../test/support/test-app';
import { createQuotaRepo } from './quota.repo';
import { balanceOf, createQuotaService, quotaPeriod } from './quota.service';

const ctx = useTestApp();

function service(free = 10) {
  return createQuotaService({
    repo: createQuotaRepo(ctx.database.db),
    clock: ctx.clock,
    freeGenerationsPerMonth: free,
  });
}

async function row(userId: string) {
  return ctx.database.db
    .selectFrom('users')
    .select(['premium_quota', 'premium_used', 'free_used', 'quota_period', 'purchased_generations'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
}

describe('quota arithmetic', () => {
  it('periods are UTC months', () => {
    expect(quotaPeriod(Date.parse('2026-11-30T23:59:59Z'))).toBe('2026-11');
    expect(quotaPeriod(Date.parse('2026-12-01T00:00:00Z'))).toBe('2026-12');
  });

  it('balance counts free use only in its own month', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    const stored = {
      quota_period: '2026-10',
      free_used: 10,
      premium_quota: 5,
      premium_used: 7,
      purchased_generations: 2,
      subscription_end_date: now + 1000,
      subscription_cancel_at_period_end: 0,
      plan_type: 'monthly',
    };
    expect(balanceOf(stored, 10, now)).toMatchObject({ freeUsed: 0, remaining: 0 + 10 + 2 });
    expect(balanceOf({ ...stored, quota_period: '2026-11' }, 10, now).remaining).toBe(2);
    expect(balanceOf(undefined, 10, now).remaining).toBe(10);
    const subscribed = { ...stored, premium_used: 100, premium_quota: 300, quota_period: '2026-11' };
    expect(balanceOf(subscribed, 10, now)).toMatchObject({ premiumActive: true, remaining: 200 + 0 + 2 });
    // Once the paid period is over, the premium quota is no longer there to draw on.
    expect(balanceOf({ ...subscribed, subscription_end_date: now }, 10, now)).toMatchObject({
      premiumActive: false,
      remaining: 2,
    });
  });
});

describe('reserve and refund', () => {
  it('draws the premium quota only while the subscription is paid up', async () => {
    const { user } = await signUpAndLogIn(ctx.app);
    await setBillingFields(ctx.database.db, user._id, {
      premium_quota: 300,
      premium_used: 0,
      purchased_generations: 50,
      subscription_end_date: ctx.clock.now() + 60_000,
      plan_type: 'monthly',
    });
    const quota = service(1);
    expect((await quota.reserve(user._id, 1)).draw).toEqual({ premium: 1, free: 0, purchased: 0 });
    ctx.clock.advance(60_000);
    try {
      expect((await quota.reserve(user._id, 3)).draw).toEqual({ premium: 0, free: 1, purchased: 2 });
      expect(await row(user._id)).toMatchObject({ premium_used: 1, purchased_generations: 48 });
    } finally {
      ctx.clock.advance(-60_000);
    }
  });

  it('draws premium first, then the free allowance, then purchased packs, and refunds each to its bucket', async () => {
    const { user } = await signUpAndLogIn(ctx.app);
    await setBillingFields(ctx.database.db, user._id, {
      premium_quota: 300,
      premium_used: 299,
      purchased_generations: 50,
      free_used: 9,
      quota_period: '2026-11',
      subscription_end_date: ctx.clock.now() + 86_400_000,
    });
    const quota = service();
    const reservation = await quota.reserve(user._id, 5);
    expect(reservation.draw).toEqual({ premium: 1, free: 1, purchased: 3 });
    expect(await row(user._id)).toMatchObject({ premium_used: 300, free_used: 10, purchased_generations: 47 });
    await quota.refund(reservation);
    expect(await row(user._id)).toMatchObject({ premium_used: 299, free_used: 9, purchased_generations: 50 });
  });

  it('refuses with 402 when the three together are short, and changes nothing', async () => {
    const { user } = await signUpAndLogIn(ctx.app);
    await setBillingFields(ctx.database.db, user._id, {
      purchased_generations: 1,
      free_used: 8,
      quota_period: '2026-11',
    });
    await expect(service().reserve(user._id, 5)).rejects.toMatchObject({ statusCode: 402, code: 'insufficient_quota' });
    expect(await row(user._id)).toMatchObject({ free_used: 8, purchased_generations: 1 });
    const exact = await service().reserve(user._id, 3);
    expect(exact.draw).toEqual({ premium: 0, free: 2, purchased: 1 });
  });

  it('a new month resets the free allowance; a refund after the month turned leaves the new month alone', async () => {
    const { user } = await signUpAndLogIn(ctx.app);
    await setBillingFields(ctx.database.db, user._id, { free_used: 10, quota_period: '2026-10' });
    const quota = service();
    const reservation = await quota.reserve(user._id, 3);
    expect(await row(user._id)).toMatchObject({ free_used: 3, quota_period: '2026-11' });
    ctx.clock.set('2026-12-01T00:00:01.000Z');
    try {
      const december = await quota.reserve(user._id, 1);
      expect(december.period).toBe('2026-12');
      expect(await row(user._id)).toMatchObject({ free_used: 1, quota_period: '2026-12' });
      await quota.refund(reservation);
      expect(await row(user._id)).toMatchObject({ free_used: 1, quota_period: '2026-12' });
    } finally {
      ctx.clock.set('2026-11-22T10:00:00.000Z');
    }
  });
});
