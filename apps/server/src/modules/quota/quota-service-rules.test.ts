import { messages } from '@flashcards/shared/messages';
import { noSubscription } from '@flashcards/shared/plans';
import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { refusalOf } from '../../../test/support/api-error';
import type { Draw, QuotaRepo, QuotaRow } from './quota.repo';
import { balanceOf, createQuotaService, isSubscriptionActive } from './quota.service';

// quota.service.ts's own rules over a stored row (the SQL that takes and refunds is quota.test.ts's): the balance's
// every field, the status answer, and which error a refused reservation gets.

const now = Date.parse('2026-11-22T10:00:00Z');

const stored = (over: Partial<QuotaRow> = {}): QuotaRow => ({
  quota_period: '2026-11',
  free_used: 4,
  premium_quota: 300,
  premium_used: 120,
  purchased_generations: 7,
  subscription_end_date: now + 1,
  subscription_cancel_at_period_end: 0,
  plan_type: 'monthly',
  ...over,
});

function service(row: QuotaRow | undefined, draw: Draw | null = { premium: 1, free: 0, purchased: 0 }) {
  const calls: unknown[][] = [];
  const repo = {
    find: async (userId: string) => (userId === 'u1' ? row : undefined),
    reserve: async (...args: unknown[]) => {
      calls.push(['reserve', ...args]);
      return draw;
    },
    refund: async (...args: unknown[]) => {
      calls.push(['refund', ...args]);
    },
  } as unknown as QuotaRepo;
  return { quota: createQuotaService({ repo, clock: { now: () => now }, freeGenerationsPerMonth: 10 }), calls };
}

describe('balanceOf', () => {
  it('answers every bucket of a subscriber in the current month', () => {
    expect(balanceOf(stored(), 10, now)).toEqual({
      premiumActive: true,
      premiumQuota: 300,
      premiumUsed: 120,
      freeQuota: 10,
      freeUsed: 4,
      purchased: 7,
      remaining: 180 + 6 + 7,
    });
  });

  it('never counts a bucket below zero', () => {
    const over = stored({ premium_used: 310, free_used: 12, purchased_generations: -3 });
    expect(balanceOf(over, 10, now).remaining).toBe(0);
    expect(balanceOf({ ...over, purchased_generations: 2 }, 10, now).remaining).toBe(2);
    expect(balanceOf({ ...over, free_used: 9 }, 10, now).remaining).toBe(1);
    expect(balanceOf({ ...over, premium_used: 299 }, 10, now).remaining).toBe(1);
  });

  it('answers zeros and the whole free allowance without a row', () => {
    const { premiumActive, remaining, ...buckets } = balanceOf(undefined, 10, now);
    expect({ premiumActive, remaining }).toEqual({ premiumActive: false, remaining: 10 });
    expect(buckets).toEqual({ premiumQuota: 0, premiumUsed: 0, freeQuota: 10, freeUsed: 0, purchased: 0 });
  });
});

describe('isSubscriptionActive', () => {
  it('is active while the paid period ends later than now, and not at its end or without one', () => {
    expect(isSubscriptionActive({ subscription_end_date: now + 1 }, now)).toBe(true);
    expect(isSubscriptionActive({ subscription_end_date: now }, now)).toBe(false);
    expect(isSubscriptionActive({ subscription_end_date: null }, now)).toBe(false);
    expect(isSubscriptionActive(undefined, now)).toBe(false);
  });
});

describe('the quota service', () => {
  it('answers the status of a subscriber who cancelled at period end', async () => {
    const { quota } = service(stored({ subscription_cancel_at_period_end: 1 }));
    expect(await quota.status('u1')).toEqual({
      has_access: true,
      plan_type: 'monthly',
      premium_quota: 300,
      premium_requests_used: 120,
      purchased_generations: 7,
      subscription_end_date: new Date(now + 1).toISOString(),
      cancel_at_period_end: true,
      free_quota: 10,
      free_used: 4,
      remaining: 193,
    });
  });

  it('answers the status of an account that never paid', async () => {
    const { quota } = service(
      stored({
        premium_quota: 0,
        premium_used: 0,
        purchased_generations: 0,
        subscription_end_date: null,
        plan_type: null,
      }),
    );
    expect(await quota.status('u1')).toEqual({ ...noSubscription, free_quota: 10, free_used: 4, remaining: 6 });
    const missing = service(undefined).quota;
    expect(await missing.status('u1')).toMatchObject({ plan_type: null, cancel_at_period_end: false, remaining: 10 });
  });

  it('reserves through the repo for this month and answers the reservation', async () => {
    const { quota, calls } = service(stored(), { premium: 2, free: 1, purchased: 0 });
    expect(await quota.reserve('u1', 3)).toEqual({
      userId: 'u1',
      cost: 3,
      period: '2026-11',
      draw: { premium: 2, free: 1, purchased: 0 },
    });
    expect(calls).toEqual([['reserve', 'u1', 3, '2026-11', 10, now]]);
    await quota.refund({ userId: 'u1', cost: 3, period: '2026-11', draw: { premium: 2, free: 1, purchased: 0 } });
    expect(calls[1]).toEqual(['refund', 'u1', { premium: 2, free: 1, purchased: 0 }, '2026-11']);
  });

  it('refuses with 402 insufficient_quota when the repo takes nothing, 401 when the account is gone', async () => {
    const { quota } = service(stored(), null);
    expect(await refusalOf(quota.reserve('u1', 500))).toEqual({
      code: 'insufficient_quota',
      detail: messages.insufficientQuota,
    });
    expect(await refusalOf(quota.reserve('gone', 1))).toEqual({
      code: 'not_authenticated',
      detail: serverMessages.notAuthenticated,
    });
  });

  it('answers the balance, or 401 for an account that is gone', async () => {
    const { quota } = service(stored());
    expect((await quota.balance('u1')).remaining).toBe(193);
    expect(await refusalOf(quota.balance('gone'))).toEqual({
      code: 'not_authenticated',
      detail: serverMessages.notAuthenticated,
    });
  });
});
