import { describe, expect, it } from 'vitest';
import { setBillingFields } from '../../../test/support/billing';
import { signUpAndLogIn } from '../../../test/support/factories';
import { biology, postCreate } from '../../../test/support/generation';
import { useTestApp } from '../../../test/support/test-app';
import { createQuotaRepo } from './quota.repo';
import { createQuotaService } from './quota.service';

// The draw order, premium then free then purchased, with buckets of different sizes: in quota.test.ts the premium
// and free buckets each had one unit left, so a draw in the order free, premium, purchased gave the same split.

const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });

const quota = () =>
  createQuotaService({ repo: createQuotaRepo(ctx.database.db), clock: ctx.clock, freeGenerationsPerMonth: 10 });

async function buckets(userId: string) {
  return ctx.database.db
    .selectFrom('users')
    .select(['premium_used', 'free_used', 'purchased_generations'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
}

/** A user with `premiumLeft` of a paid-up 300, `freeLeft` of this month's 10, and `purchased` pack generations. */
async function userWith(premiumLeft: number, freeLeft: number, purchased: number) {
  const session = await signUpAndLogIn(ctx.app);
  await setBillingFields(ctx.database.db, session.user._id, {
    plan_type: premiumLeft > 0 ? 'monthly' : null,
    premium_quota: 300,
    premium_used: 300 - premiumLeft,
    subscription_end_date: premiumLeft > 0 ? ctx.clock.now() + 86_400_000 : null,
    free_used: 10 - freeLeft,
    quota_period: '2026-11',
    purchased_generations: purchased,
  });
  return session;
}

describe('the draw order of a reservation', () => {
  it.each([
    // premium left, free left, purchased, cost → premium, free, purchased taken
    [3, 5, 7, 2, { premium: 2, free: 0, purchased: 0 }],
    [3, 5, 7, 4, { premium: 3, free: 1, purchased: 0 }],
    [3, 5, 7, 10, { premium: 3, free: 5, purchased: 2 }],
    [0, 5, 7, 3, { premium: 0, free: 3, purchased: 0 }],
    [0, 2, 7, 5, { premium: 0, free: 2, purchased: 3 }],
    [0, 0, 7, 5, { premium: 0, free: 0, purchased: 5 }],
    [4, 0, 7, 5, { premium: 4, free: 0, purchased: 1 }],
  ])('premium %d, free %d, purchased %d, cost %d: takes %o', async (premium, free, purchased, cost, draw) => {
    const { user } = await userWith(premium, free, purchased);
    const reservation = await quota().reserve(user._id, cost);
    expect(reservation.draw).toEqual(draw);
    expect(await buckets(user._id)).toEqual({
      premium_used: 300 - premium + draw.premium,
      free_used: 10 - free + draw.free,
      purchased_generations: purchased - draw.purchased,
    });
    await quota().refund(reservation);
    expect(await buckets(user._id)).toEqual({
      premium_used: 300 - premium,
      free_used: 10 - free,
      purchased_generations: purchased,
    });
  });

  it('a generation by a subscriber with free generations left spends premium, and the status says so', async () => {
    const { user, headers } = await userWith(3, 5, 7);
    const response = await postCreate(ctx.app, headers, [{ name: 'text', value: biology }]);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ cost: 1, remaining: 2 + 5 + 7 });
    expect(await buckets(user._id)).toEqual({ premium_used: 298, free_used: 5, purchased_generations: 7 });
    const status = await ctx.app.inject({ method: 'GET', url: '/api/subscription-status', headers });
    expect(status.json()).toMatchObject({
      has_access: true,
      premium_quota: 300,
      premium_requests_used: 298,
      free_quota: 10,
      free_used: 5,
      purchased_generations: 7,
      remaining: 14,
    });
  });

  it('without premium, a generation spends the free allowance before a purchased pack', async () => {
    const { user, headers } = await userWith(0, 5, 7);
    const response = await postCreate(ctx.app, headers, [{ name: 'text', value: biology }]);
    expect(response.statusCode, response.body).toBe(200);
    expect(await buckets(user._id)).toEqual({ premium_used: 300, free_used: 6, purchased_generations: 7 });
  });
});
