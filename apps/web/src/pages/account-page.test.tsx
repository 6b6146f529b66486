import type { SubscriptionStatus } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { noSubscription, plans, toPublicPlan } from '@flashcards/shared/plans';
import { serverMessages } from '@flashcards/shared/server-messages';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeCall, fakeServer, json, never } from '../../test/fake-server';
import { renderApp, testUser } from '../../test/render-app';
import { formatRenewalDate, initialsOf, statusPollMs } from '../features/account/account-screen';
import { changelog } from '../features/account/changelog';
import { faqItems } from '../features/account/faq';
import { paymentNoticeMs } from '../features/billing/payment-return';
import { localStore } from '../lib/local-store';
import { hardNavigate } from '../lib/navigation';
import { storageKeys } from '../lib/storage-keys';

vi.mock('../lib/navigation', () => ({ hardNavigate: vi.fn() }));

const free: SubscriptionStatus = {
  ...noSubscription,
  free_quota: 10,
  free_used: 4,
  remaining: 6,
};
const monthly: SubscriptionStatus = {
  ...free,
  has_access: true,
  plan_type: 'monthly',
  premium_quota: 300,
  premium_requests_used: 12,
  purchased_generations: 50,
  subscription_end_date: '2026-12-22T10:00:00.000Z',
  remaining: 344,
};
const publicPlans = plans.map(toPublicPlan);

type Routes = Parameters<typeof fakeServer>[0];

function renderAccount(routes: Routes = {}, path = '/account', user = testUser) {
  localStore.set(storageKeys.accessToken, 'token');
  const server = fakeServer({
    'GET /users/me': () => json(200, user),
    'GET /api/subscription-status': () => json(200, free),
    'GET /api/plans': () => json(200, publicPlans),
    ...routes,
  });
  return { ...renderApp(path, server.fetch), calls: server.calls };
}

const callsTo = (calls: FakeCall[], method: string, path: string) =>
  calls.filter((call) => call.method === method && call.path === path);
const bodiesOf = (calls: FakeCall[], method: string, path: string) =>
  callsTo(calls, method, path).map((call) => JSON.parse(call.body ?? ''));

beforeEach(() => {
  vi.mocked(hardNavigate).mockClear();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('account page', () => {
  it('welcomes the user by name and shows the profile with initials, a create banner and privacy links', async () => {
    renderAccount({}, '/account', { ...testUser, name: 'Ada Lovelace' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Ada Lovelace!' })).toBeInTheDocument();
    expect(screen.getByText('AL')).toHaveAttribute('aria-hidden', 'true');
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    const banner = screen.getByRole('region', { name: 'Create cards' });
    expect(within(banner).getByRole('link', { name: 'Create flashcards now' })).toHaveAttribute('href', '/create');
    expect(screen.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
    expect(screen.getByRole('link', { name: 'Privacy Settings' })).toHaveAttribute('href', '/privacy-settings');
  });

  it('welcomes the user by email when there is no name', async () => {
    renderAccount({}, '/account', { ...testUser, name: '' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, ada@example.com!' })).toBeInTheDocument();
    expect(screen.getByText('A')).toHaveAttribute('aria-hidden', 'true');
  });

  it('makes initials from the first and last names, or the email', () => {
    expect(initialsOf({ name: 'ada byron lovelace', email: 'x@y.z' })).toBe('AL');
    expect(initialsOf({ name: 'Ada', email: 'x@y.z' })).toBe('A');
    expect(initialsOf({ name: '  ', email: 'zed@y.z' })).toBe('Z');
  });

  it('logs out to /', async () => {
    const { goTo } = renderAccount();
    fireEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(goTo).toHaveBeenCalledWith('/');
    expect(localStore.get(storageKeys.accessToken)).toBeNull();
  });

  it('says a cancelled monthly plan lasts until its end date instead of renewing', async () => {
    renderAccount({ 'GET /api/subscription-status': () => json(200, { ...monthly, cancel_at_period_end: true }) });
    expect(await screen.findByText(/^Cancelled: access until/)).toBeInTheDocument();
    expect(screen.queryByText(/^Renews on/)).toBeNull();
  });

  it('shows an active monthly plan with its renewal date, and the usage meters', async () => {
    renderAccount({ 'GET /api/subscription-status': () => json(200, monthly) });
    expect(await screen.findByText('Status: Active')).toBeInTheDocument();
    expect(screen.getByText(formatRenewalDate(monthly.subscription_end_date ?? ''))).toBeInTheDocument();
    expect(document.querySelector('time')?.getAttribute('datetime')).toBe(monthly.subscription_end_date);
    expect(screen.getByText(/^Renews on/)).toBeInTheDocument();
    const premium = screen.getByLabelText('Monthly premium generations');
    expect(premium).toHaveAttribute('value', '12');
    expect(premium).toHaveAttribute('max', '300');
    expect(screen.getByText('12 of 300 used')).toBeInTheDocument();
    expect(screen.getByLabelText('Free generations')).toHaveAttribute('value', '4');
    expect(screen.getByText('4 of 10 used')).toBeInTheDocument();
    expect(screen.getByTestId('purchased-generations')).toHaveTextContent('50');
    expect(screen.getByTestId('remaining-generations')).toHaveTextContent('344');
    expect(screen.getByRole('button', { name: 'Current plan' })).toBeDisabled();
  });

  it('shows the free plan when there is no monthly subscription', async () => {
    renderAccount();
    expect(await screen.findByText(/^Status: Not subscribed/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Monthly premium generations')).toBeNull();
    expect(screen.getByRole('button', { name: 'Subscribe to Monthly' })).toBeEnabled();
  });

  it('polls the subscription status every 30 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let status = free;
    const { calls } = renderAccount({ 'GET /api/subscription-status': () => json(200, status) });
    await screen.findByText(/^Status: Not subscribed/);
    const polls = () => callsTo(calls, 'GET', '/api/subscription-status').length;
    expect(polls()).toBe(1);
    status = monthly;
    await act(async () => vi.advanceTimersByTime(statusPollMs - 1000));
    expect(polls()).toBe(1);
    await act(async () => vi.advanceTimersByTime(1000));
    await waitFor(() => expect(polls()).toBe(2));
    expect(await screen.findByText('Status: Active')).toBeInTheDocument();
    expect(statusPollMs).toBe(30_000);
  });

  it('lists the plans from GET /api/plans with prices and features', async () => {
    const served = publicPlans.map((plan) => ({ ...plan, description: `${plan.description} (served)` }));
    renderAccount({ 'GET /api/plans': () => json(200, served) });
    expect(await screen.findByText('50 extra card generations, paid once. (served)')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Generation Pack (50)' })).toBeInTheDocument();
    expect(screen.getByText('$6.99 one-time')).toBeInTheDocument();
    expect(screen.getByText('$12.00 one-time')).toBeInTheDocument();
    expect(screen.getByText('$20.00 per month')).toBeInTheDocument();
    expect(screen.getByText('300 premium generations per month')).toBeInTheDocument();
  });

  it.each([
    ['Buy Generation Pack (50)', 'generations'],
    ['Buy Generation Pack (100)', 'generations_100'],
    ['Subscribe to Monthly', 'monthly'],
  ])('"%s" asks for a %s checkout with this origin, keeps the buyer locally and goes there', async (name, plan) => {
    const { calls } = renderAccount({
      'POST /api/create-subscription': () => json(200, { checkout_url: 'http://app.test/test-checkout/cs_test_1' }),
    });
    fireEvent.click(await screen.findByRole('button', { name }));
    await waitFor(() => expect(hardNavigate).toHaveBeenCalledWith('http://app.test/test-checkout/cs_test_1'));
    expect(bodiesOf(calls, 'POST', '/api/create-subscription')).toEqual([
      { plan_type: plan, base_url: window.location.origin },
    ]);
    expect(localStore.get(storageKeys.selectedPlanType)).toBe(plan);
    expect(localStore.get(storageKeys.pendingSubscriptionEmail)).toBe('ada@example.com');
    expect(localStore.get(storageKeys.pendingSubscriptionName)).toBe('Ada');
  });

  it('disables the plan buttons while the checkout is being made', async () => {
    renderAccount({ 'POST /api/create-subscription': never });
    fireEvent.click(await screen.findByRole('button', { name: 'Buy Generation Pack (50)' }));
    expect(await screen.findByRole('button', { name: 'Redirecting...' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Buy Generation Pack (100)' })).toBeDisabled();
  });

  it('shows the server detail, or a fallback, when the checkout cannot be made', async () => {
    let answer = json(502, { detail: serverMessages.paymentProviderUnavailable, code: 'payment_unavailable' });
    renderAccount({ 'POST /api/create-subscription': () => answer });
    fireEvent.click(await screen.findByRole('button', { name: 'Buy Generation Pack (50)' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(serverMessages.paymentProviderUnavailable);
    answer = new Response(null, { status: 500 });
    fireEvent.click(screen.getByRole('button', { name: 'Buy Generation Pack (50)' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(messages.accountCheckoutFailed));
    expect(hardNavigate).not.toHaveBeenCalled();
  });

  it('opens the billing portal from Manage Subscription', async () => {
    const { calls } = renderAccount({
      'POST /api/billing-portal': () => json(200, { url: 'http://app.test/test-billing/t1' }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Manage Subscription' }));
    await waitFor(() => expect(hardNavigate).toHaveBeenCalledWith('http://app.test/test-billing/t1'));
    expect(callsTo(calls, 'POST', '/api/billing-portal')).toHaveLength(1);
  });

  it('says when there is nothing to manage', async () => {
    renderAccount({
      'POST /api/billing-portal': () => json(404, { detail: serverMessages.nothingToManage, code: 'no_customer' }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Manage Subscription' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(serverMessages.nothingToManage);
    expect(hardNavigate).not.toHaveBeenCalled();
  });

  it('verifies a payment on return, refreshes the status, cleans the URL and hides the message after 5 s', async () => {
    localStore.set(storageKeys.selectedPlanType, 'generations');
    localStore.set(storageKeys.pendingSubscriptionEmail, 'buyer@example.com');
    localStore.set(storageKeys.pendingSubscriptionName, 'Buyer');
    let status = free;
    const { calls, router } = renderAccount(
      {
        'GET /api/subscription-status': () => json(200, status),
        'POST /api/verify-subscription': () => {
          status = { ...free, purchased_generations: 50, remaining: 56 };
          return json(200, { success: true, message: '50 generations were added to your account.' });
        },
      },
      '/account?success=true&plan=generations&session_id=cs_test_abc',
    );
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const notice = await screen.findByText(
      'Payment successful! Thank you for your purchase. 50 generations were added to your account.',
    );
    expect(notice).toHaveAttribute('role', 'status');
    expect(bodiesOf(calls, 'POST', '/api/verify-subscription')).toEqual([
      {
        plan_type: 'generations',
        customer_email: 'buyer@example.com',
        customer_name: 'Buyer',
        session_id: 'cs_test_abc',
      },
    ]);
    expect(router.state.location.pathname).toBe('/account');
    expect(router.state.location.search).toBe('');
    await waitFor(() => expect(screen.getByTestId('purchased-generations')).toHaveTextContent('50'));
    const verifyAt = calls.findIndex((call) => call.path === '/api/verify-subscription');
    expect(calls.slice(verifyAt).some((call) => call.path === '/api/subscription-status')).toBe(true);
    expect(localStore.get(storageKeys.selectedPlanType)).toBeNull();
    expect(localStore.get(storageKeys.pendingSubscriptionEmail)).toBeNull();
    expect(localStore.get(storageKeys.pendingSubscriptionName)).toBeNull();

    await act(async () => vi.advanceTimersByTime(paymentNoticeMs - 200));
    expect(screen.getByText(/^Payment successful!/)).toBeInTheDocument();
    await act(async () => vi.advanceTimersByTime(400));
    expect(screen.queryByText(/^Payment successful!/)).toBeNull();
    expect(paymentNoticeMs).toBe(5000);
  });

  it("uses the user's own email and name when nothing was kept, and sends no session id when there is none", async () => {
    const { calls } = renderAccount(
      { 'POST /api/verify-subscription': () => json(200, { success: true, message: 'ok' }) },
      '/account?success=true&plan=monthly',
    );
    await waitFor(() => expect(callsTo(calls, 'POST', '/api/verify-subscription')).toHaveLength(1));
    expect(bodiesOf(calls, 'POST', '/api/verify-subscription')).toEqual([
      { plan_type: 'monthly', customer_email: 'ada@example.com', customer_name: 'Ada' },
    ]);
  });

  it('only logs a failed verification, and still cleans the URL', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { calls, router } = renderAccount(
      {
        'POST /api/verify-subscription': () =>
          json(200, { success: false, message: 'Error verifying generations subscription/purchase' }),
      },
      '/account?success=true&plan=generations&session_id=cs_test_bad',
    );
    await waitFor(() => expect(logged).toHaveBeenCalled());
    expect(logged.mock.calls[0]?.[0]).toBe('Error verifying generations subscription/purchase');
    expect(callsTo(calls, 'POST', '/api/verify-subscription')).toHaveLength(1);
    expect(router.state.location.search).toBe('');
    expect(screen.queryByText(/^Payment successful!/)).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('only logs a verification request that fails', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderAccount(
      {
        'POST /api/verify-subscription': () =>
          json(500, { detail: serverMessages.internalError, code: 'internal_error' }),
      },
      '/account?success=true&plan=generations_100',
    );
    await waitFor(() => expect(logged).toHaveBeenCalled());
    expect(logged.mock.calls[0]?.[0]).toBe('Error verifying generations_100 subscription/purchase');
    expect(screen.queryByText(/^Payment successful!/)).toBeNull();
  });

  it.each(['/account?success=true', '/account?plan=generations', '/account?success=false&plan=generations'])(
    'verifies nothing for %s',
    async (path) => {
      const { calls } = renderAccount({}, path);
      await screen.findByRole('heading', { level: 1 });
      await screen.findByText(/^Status:/);
      expect(callsTo(calls, 'POST', '/api/verify-subscription')).toHaveLength(0);
    },
  );

  it('has a FAQ accordion', async () => {
    renderAccount();
    const first = faqItems[0];
    if (!first) throw new Error('no FAQ');
    const summary = await screen.findByText(first.question);
    const details = summary.closest('details');
    expect(details).not.toHaveAttribute('open');
    fireEvent.click(summary);
    expect(details).toHaveAttribute('open');
    expect(screen.getAllByRole('group').length).toBeGreaterThanOrEqual(faqItems.length);
  });

  it('opens the updates modal with the changelog from April 6 to 12, 2025', async () => {
    renderAccount();
    fireEvent.click(await screen.findByRole('button', { name: "What's New" }));
    const dialog = screen.getByRole('dialog', { name: "What's New" });
    const dates = [...dialog.querySelectorAll('time')].map((time) => time.getAttribute('datetime'));
    expect(dates).toEqual([
      '2025-04-12',
      '2025-04-11',
      '2025-04-10',
      '2025-04-09',
      '2025-04-08',
      '2025-04-07',
      '2025-04-06',
    ]);
    expect(within(dialog).getByText('April 6, 2025')).toBeInTheDocument();
    expect(within(dialog).getByText('April 12, 2025')).toBeInTheDocument();
    expect(changelog).toHaveLength(7);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('sends a signed-out visitor to /login', async () => {
    const { router } = renderApp('/account', fakeServer({}).fetch);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});
