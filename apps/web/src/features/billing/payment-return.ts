import type { User } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useVerifySubscription } from '../../lib/billing-api';
import { localStore } from '../../lib/local-store';
import { storageKeys } from '../../lib/storage-keys';
import { useTimedNotice } from '../../lib/use-timed-notice';

/** How long the payment success message stays. */
export const paymentNoticeMs = 5000;

// biome-ignore lint/suspicious/noConsole: a failed payment verification is only logged, by design.
const logError = (message: string, error?: unknown) => console.error(message, error ?? '');

/** Forgets what was kept for the checkout's return (plan type, email and name). */
export function clearPendingCheckout(): void {
  localStore.remove(storageKeys.selectedPlanType);
  localStore.remove(storageKeys.pendingSubscriptionEmail);
  localStore.remove(storageKeys.pendingSubscriptionName);
}

/**
 * The return from checkout: `?success=true&plan=…` (and the provider's `session_id`)
 * triggers POST /api/verify-subscription, then the subscription status is refreshed. The URL is cleaned at once so
 * that a reload verifies nothing twice; a success message shows for 5 s; a failure is only logged.
 */
export function usePaymentReturn(user: User | null): string | null {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const verify = useVerifySubscription();
  const started = useRef(false);
  const notice = useTimedNotice<string>(paymentNoticeMs);
  const showNotice = notice.show;

  const success = params.get('success');
  const plan = params.get('plan');
  const sessionId = params.get('session_id');
  const { mutateAsync } = verify;

  useEffect(() => {
    if (started.current || !user || success !== 'true' || !plan) return;
    started.current = true;
    navigate(pathname, { replace: true });
    const planType = plan;
    mutateAsync({
      plan_type: planType,
      customer_email: localStore.get(storageKeys.pendingSubscriptionEmail) ?? user.email,
      customer_name: localStore.get(storageKeys.pendingSubscriptionName) ?? user.name,
      ...(sessionId ? { session_id: sessionId } : {}),
    })
      .then(
        (result) => {
          if (result.success) {
            showNotice(
              result.message ? `${messages.accountPaymentSuccess} ${result.message}` : messages.accountPaymentSuccess,
            );
          } else {
            logError(result.message);
          }
        },
        (error: unknown) => logError(`Error verifying ${planType} subscription/purchase`, error),
      )
      .finally(clearPendingCheckout);
  }, [user, success, plan, sessionId, pathname, navigate, mutateAsync, showNotice]);

  return notice.value;
}
