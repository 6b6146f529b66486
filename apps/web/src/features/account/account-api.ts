import type {
  BillingPortalResponse,
  CreateSubscriptionResponse,
  VerifySubscriptionRequest,
  VerifySubscriptionResponse,
} from '@flashcards/shared/api-types';
import type { PlanType } from '@flashcards/shared/plans';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../lib/api-context';
import { billingKeys } from '../billing/billing-api';

/** POST /api/create-subscription: the provider's checkout page for a plan, returning to `baseUrl`/account. */
export function useCreateCheckout() {
  const api = useApi();
  return useMutation({
    mutationFn: (input: { planType: PlanType; baseUrl: string }) =>
      api.post<CreateSubscriptionResponse>('/api/create-subscription', {
        json: { plan_type: input.planType, base_url: input.baseUrl },
      }),
  });
}

/** POST /api/billing-portal: the provider's page to manage the subscription. */
export function useBillingPortal() {
  const api = useApi();
  return useMutation({ mutationFn: () => api.post<BillingPortalResponse>('/api/billing-portal') });
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
