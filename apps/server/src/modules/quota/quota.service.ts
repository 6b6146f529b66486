import type { SubscriptionStatus } from '@flashcards/shared/api-types';
import { isoTime } from '@flashcards/shared/time';
import type { Clock } from '../../adapters/clock';
import { errors } from '../../http/app-error';
import type { Draw, QuotaRepo, QuotaRow } from './quota.repo';

/** A taken cost, to be kept on success or refunded on failure. */
export interface Reservation {
  userId: string;
  cost: number;
  period: string;
  draw: Draw;
}

/** The UTC month that the free allowance counts, e.g. "2026-11". */
export function quotaPeriod(now: number): string {
  return isoTime(now).slice(0, 7);
}

export interface QuotaBalance {
  /** A monthly subscription is paid up to now or later. */
  premiumActive: boolean;
  premiumQuota: number;
  premiumUsed: number;
  freeQuota: number;
  freeUsed: number;
  purchased: number;
  /** What the next generation may draw on: premium left + free left + purchased. */
  remaining: number;
}

/** Pure arithmetic over a stored row: what is used and left now (a new month resets the free allowance). */
export function balanceOf(row: QuotaRow | undefined, freeQuota: number, now: number): QuotaBalance {
  const period = quotaPeriod(now);
  const freeUsed = row && row.quota_period === period ? row.free_used : 0;
  const premiumActive = isSubscriptionActive(row, now);
  const premiumQuota = row?.premium_quota ?? 0;
  const premiumUsed = row?.premium_used ?? 0;
  const purchased = row?.purchased_generations ?? 0;
  const premiumLeft = premiumActive ? Math.max(0, premiumQuota - premiumUsed) : 0;
  const remaining = premiumLeft + Math.max(0, freeQuota - freeUsed) + Math.max(0, purchased);
  return { premiumActive, premiumQuota, premiumUsed, freeQuota, freeUsed, purchased, remaining };
}

/** The monthly plan gives premium generations until its paid period ends (a cancelled plan too, until then). */
export function isSubscriptionActive(row: Pick<QuotaRow, 'subscription_end_date'> | undefined, now: number): boolean {
  return row?.subscription_end_date != null && row.subscription_end_date > now;
}

export interface QuotaServiceDeps {
  repo: QuotaRepo;
  clock: Clock;
  freeGenerationsPerMonth: number;
}

/**
 * Generation quota: a free monthly allowance, a monthly premium quota (granted by billing) and purchased packs,
 * drawn in that order: premium, free, purchased. Reserve before the AI is called; refund if it fails.
 */
export function createQuotaService(deps: QuotaServiceDeps) {
  const { repo, clock } = deps;
  const freeQuota = deps.freeGenerationsPerMonth;

  /** The user's balance now; 401 not_authenticated when the account was deleted (e.g. while a generation ran). */
  async function balance(userId: string): Promise<QuotaBalance> {
    const row = await repo.find(userId);
    if (!row) throw errors.notAuthenticated();
    return balanceOf(row, freeQuota, clock.now());
  }

  return {
    balance,

    /**
     * Takes `cost` atomically, or throws 402 insufficient_quota when less than that is left (401 not_authenticated
     * when the account is gone: the update found no row).
     */
    async reserve(userId: string, cost: number): Promise<Reservation> {
      const now = clock.now();
      const period = quotaPeriod(now);
      const draw = await repo.reserve(userId, cost, period, freeQuota, now);
      if (!draw) {
        if (!(await repo.find(userId))) throw errors.notAuthenticated();
        throw errors.insufficientQuota();
      }
      return { userId, cost, period, draw };
    },

    /** Gives a failed generation's cost back. */
    async refund(reservation: Reservation): Promise<void> {
      await repo.refund(reservation.userId, reservation.draw, reservation.period);
    },

    /** GET /api/subscription-status. */
    async status(userId: string): Promise<SubscriptionStatus> {
      const row = await repo.find(userId);
      const b = balanceOf(row, freeQuota, clock.now());
      return {
        has_access: b.premiumActive,
        plan_type: row?.plan_type ?? null,
        premium_quota: b.premiumQuota,
        premium_requests_used: b.premiumUsed,
        purchased_generations: b.purchased,
        subscription_end_date: row?.subscription_end_date != null ? isoTime(row.subscription_end_date) : null,
        cancel_at_period_end: row?.subscription_cancel_at_period_end === 1,
        free_quota: b.freeQuota,
        free_used: b.freeUsed,
        remaining: b.remaining,
      };
    },
  };
}

export type QuotaService = ReturnType<typeof createQuotaService>;
