import type {
  BillingPortalResponse,
  CreateSubscriptionResponse,
  SubscriptionStatus,
  VerifySubscriptionRequest,
  VerifySubscriptionResponse,
} from '@flashcards/shared/api-types';
import { noSubscription, type Plan, type PlanType } from '@flashcards/shared/plans';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from './api-context';
import { useApiMutation } from './api-hooks';

export const billingKeys = {
  status: ['subscription-status'] as const,
  plans: ['plans'] as const,
};

/**
 * GET /api/subscription-status. On error it falls back to "no access".
 * `pollMs` refreshes it (the account page polls every 30 s).
 */
export function useSubscriptionStatus(options: { pollMs?: number } = {}) {
  const api = useApi();
  return useQuery({
    queryKey: billingKeys.status,
    queryFn: async () => {
      try {
        return await api.get<SubscriptionStatus>('/api/subscription-status');
      } catch {
        return noSubscription;
      }
    },
    refetchInterval: options.pollMs ?? false,
  });
}

export function usePlans() {
  const api = useApi();
  return useQuery({ queryKey: billingKeys.plans, queryFn: () => api.get<Plan[]>('/api/plans'), staleTime: Infinity });
}

/** POST /api/create-subscription: the provider's checkout page for a plan, returning to `baseUrl`/account. */
export function useCreateCheckout() {
  return useApiMutation((api, input: { planType: PlanType; baseUrl: string }) =>
    api.post<CreateSubscriptionResponse>('/api/create-subscription', {
      json: { plan_type: input.planType, base_url: input.baseUrl },
    }),
  );
}

/** POST /api/billing-portal: the provider's page to manage the subscription. */
export function useBillingPortal() {
  return useApiMutation((api) => api.post<BillingPortalResponse>('/api/billing-portal'));
}

/** POST /api/verify-subscription after the checkout returns; the subscription status is refreshed afterwards. */
export function useVerifySubscription() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: VerifySubscriptionRequest) =>
      api.post<VerifySubscriptionResponse>('/api/verify-subscription', { json: input }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: billingKeys.status }),
  });
}
