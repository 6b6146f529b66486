import { fillMessage } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { expectError } from '../../../test/support/api-error';
import { billingFieldsOf } from '../../../test/support/billing';
import { type AuthHeaders, DEFAULT_PASSWORD, loginForm, signUpAndLogIn } from '../../../test/support/factories';
import { useTestApp } from '../../../test/support/test-app';

// The local test mode, walked through over HTTP as a person with the two-command setup would.

const ctx = useTestApp({
  env: {
    PUBLIC_URL: 'http://localhost:3000',
    ALLOWED_ORIGINS: 'https://cards.example.com',
    AUTH_RATE_LIMIT_PER_IP: '1000',
  },
});

const subscriptionStatus = (headers: AuthHeaders) =>
  ctx.app.inject({ method: 'GET', url: '/api/subscription-status', headers });

const post = (url: string, headers: Record<string, string>, payload: object = {}) =>
  ctx.app.inject({ method: 'POST', url, headers, payload });

const billingOf = (userId: string) => billingFieldsOf(ctx.database.db, userId);

const paymentsOf = (userId: string) =>
  ctx.database.db.selectFrom('payments').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();

async function checkout(headers: Record<string, string>, planType: string, baseUrl = 'http://localhost:3000') {
  const response = await post('/api/create-subscription', headers, { plan_type: planType, base_url: baseUrl });
  expect(response.statusCode, response.body).toBe(200);
  const url = new URL(response.json().checkout_url);
  return { url, path: url.pathname, sessionId: url.pathname.split('/').pop() as string };
}

describe('GET /api/plans', () => {
  it('lists the three plans of the specification', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/plans' });
    expect(response.statusCode).toBe(200);
    const plans = response.json();
    expect(
      plans.map((plan: { planType: string; price: number; name: string }) => [plan.planType, plan.price, plan.name]),
    ).toEqual([
      ['generations', 6.99, 'Generation Pack (50)'],
      ['generations_100', 12, 'Generation Pack (100)'],
      ['monthly', 20, 'Monthly'],
    ]);
    for (const plan of plans)
      expect(Object.keys(plan).sort()).toEqual(['description', 'features', 'name', 'planType', 'price']);
    expect(plans[2].features).toEqual(
      expect.arrayContaining(['300 premium generations per month', 'Fast response', 'Priority support']),
    );
  });
});

describe('buying a pack in test mode', () => {
  it('create-subscription → checkout page → pay → granted once, and verification agrees', async () => {
    const { user, headers } = await signUpAndLogIn(ctx.app);
    const { url, path, sessionId } = await checkout(headers, 'generations');
    expect(url.origin).toBe('http://localhost:3000');
    expect(path).toMatch(/^\/test-checkout\/cs_test_[\w-]{32}$/);

    const page = await ctx.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('Generation Pack (50)');
    expect(page.body).toContain('$6.99');
    expect(page.body).toContain(serverMessages.testModeNotice);
    expect((await billingOf(user._id)).purchased_generations).toBe(0);

    const pay = await ctx.app.inject({ method: 'POST', url: `${path}/pay` });
    expect(pay.statusCode).toBe(303);
    expect(pay.headers.location).toBe(
      `http://localhost:3000/account?success=true&plan=generations&session_id=${sessionId}`,
    );
    expect(await billingOf(user._id)).toMatchObject({
      purchased_generations: 50,
      plan_type: 'generations',
      premium_quota: 0,
    });
    const status = await subscriptionStatus(headers);
    expect(status.json()).toEqual({
      has_access: false,
      plan_type: 'generations',
      premium_quota: 0,
      premium_requests_used: 0,
      purchased_generations: 50,
      subscription_end_date: null,
      cancel_at_period_end: false,
      free_quota: 10,
      free_used: 0,
      remaining: 60,
    });

    // Paying again, and verifying after the return, grant nothing more.
    expect((await ctx.app.inject({ method: 'POST', url: `${path}/pay` })).statusCode).toBe(303);
    const verify = await post('/api/verify-subscription', headers, {
      plan_type: 'generations',
      customer_email: user.email,
      customer_name: 'Ada',
      session_id: sessionId,
    });
    expect(verify.statusCode).toBe(200);
    expect(verify.json()).toEqual({
      success: true,
      message: fillMessage(serverMessages.packPurchased, { generations: 50 }),
    });
    expect((await billingOf(user._id)).purchased_generations).toBe(50);
    const payments = await paymentsOf(user._id);
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({
      provider: 'test',
      provider_payment_id: sessionId,
      kind: 'checkout',
      plan_type: 'generations',
      amount_cents: 699,
      currency: 'usd',
      status: 'paid',
      generations_granted: 50,
    });

    // Packs add up.
    const second = await checkout(headers, 'generations_100');
    await ctx.app.inject({ method: 'POST', url: `${second.path}/pay` });
    expect((await billingOf(user._id)).purchased_generations).toBe(150);
    const history = await ctx.app.inject({ method: 'GET', url: '/api/payments', headers });
    expect(history.json().map((row: { plan_type: string; amount: number }) => [row.plan_type, row.amount])).toEqual([
      ['generations_100', 12],
      ['generations', 6.99],
    ]);
  });
});

describe('the monthly subscription in test mode', () => {
  it('grants 300 a month, renews with usage reset, and keeps access until the end after cancelling', async () => {
    const { user, headers } = await signUpAndLogIn(ctx.app);
    const { path } = await checkout(headers, 'monthly');
    const page = await ctx.app.inject({ method: 'GET', url: path });
    expect(page.body).toContain('$20.00 per month');
    await ctx.app.inject({ method: 'POST', url: `${path}/pay` });
    const start = ctx.clock.now();
    const subscribed = await billingOf(user._id);
    expect(subscribed).toMatchObject({ plan_type: 'monthly', premium_quota: 300, premium_used: 0 });
    expect(subscribed.subscription_end_date).toBe(start + 30 * 24 * 3600 * 1000);
    const status = await subscriptionStatus(headers);
    expect(status.json()).toMatchObject({
      has_access: true,
      plan_type: 'monthly',
      premium_quota: 300,
      premium_requests_used: 0,
      subscription_end_date: new Date(start + 30 * 24 * 3600 * 1000).toISOString(),
      remaining: 310,
    });

    const portal = await post('/api/billing-portal', headers);
    expect(portal.statusCode).toBe(200);
    const portalPath = new URL(portal.json().url).pathname;
    expect(portalPath).toMatch(/^\/test-billing\/bps_test_/);
    const portalPage = await ctx.app.inject({ method: 'GET', url: portalPath });
    expect(portalPage.statusCode).toBe(200);
    expect(portalPage.body).toContain('renews on');

    // A renewal resets the month's usage and extends the period, once per invoice.
    await ctx.database.db.updateTable('users').set({ premium_used: 120 }).where('id', '=', user._id).execute();
    const renew = await ctx.app.inject({ method: 'POST', url: `${portalPath}/renew` });
    expect(renew.statusCode).toBe(303);
    const renewed = await billingOf(user._id);
    expect(renewed).toMatchObject({ premium_quota: 300, premium_used: 0 });
    expect(renewed.subscription_end_date).toBe(start + 60 * 24 * 3600 * 1000);
    expect((await paymentsOf(user._id)).map((payment) => payment.kind)).toEqual(['checkout', 'renewal']);

    // Cancelling keeps access until the end of the paid period.
    await ctx.app.inject({ method: 'POST', url: `${portalPath}/cancel` });
    const cancelled = await billingOf(user._id);
    expect(cancelled).toMatchObject({ subscription_cancel_at_period_end: 1, premium_quota: 300 });
    expect(cancelled.subscription_end_date).toBe(renewed.subscription_end_date);
    expect((await ctx.app.inject({ method: 'GET', url: portalPath })).body).toContain('cancelled, access until');
    const stillActive = await subscriptionStatus(headers);
    expect(stillActive.json()).toMatchObject({ has_access: true, premium_quota: 300, cancel_at_period_end: true });

    // After the paid period the premium quota is gone; the free allowance remains.
    ctx.clock.advance(61 * 24 * 3600 * 1000);
    try {
      const login = await loginForm(ctx.app, user.email, DEFAULT_PASSWORD);
      const fresh = { authorization: `Bearer ${login.json().access_token}` };
      const ended = await subscriptionStatus(fresh);
      expect(ended.json()).toMatchObject({ has_access: false, plan_type: 'monthly', remaining: 10 });
    } finally {
      ctx.clock.advance(-61 * 24 * 3600 * 1000);
    }
  });
});

describe('verify-subscription never grants on the client word', () => {
  it('answers success false and grants nothing for invented or unpaid checkouts', async () => {
    const { user, headers } = await signUpAndLogIn(ctx.app);
    const other = await signUpAndLogIn(ctx.app);
    const othersCheckout = await checkout(other.headers, 'generations');
    await ctx.app.inject({ method: 'POST', url: `${othersCheckout.path}/pay` });
    const unpaid = await checkout(headers, 'monthly');

    const attempts: [object, string][] = [
      [{ plan_type: 'generations', customer_email: 'rich@example.com', customer_name: 'Rich' }, 'generations'],
      [{ plan_type: 'generations', session_id: 'cs_test_made_up' }, 'generations'],
      [{ plan_type: 'generations', session_id: othersCheckout.sessionId }, 'generations'],
      [{ plan_type: 'monthly', session_id: unpaid.sessionId }, 'monthly'],
      [{ plan_type: 'monthly', customer_email: user.email }, 'monthly'],
      [{ plan_type: 'gold', customer_email: user.email }, 'gold'],
    ];
    for (const [payload, plan] of attempts) {
      const response = await post('/api/verify-subscription', headers, payload);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        success: false,
        message: fillMessage(serverMessages.verifyFailed, { plan }),
      });
    }
    expect(await billingOf(user._id)).toMatchObject({ purchased_generations: 0, premium_quota: 0, plan_type: null });
    expect(await paymentsOf(user._id)).toEqual([]);
    expect((await billingOf(other.user._id)).purchased_generations).toBe(50);
  });
});

describe('billing inputs of the wrong type or size', () => {
  it('answer 422 validation_failed and grant nothing', async () => {
    const { user, headers } = await signUpAndLogIn(ctx.app);
    const cases: [string, object, string, string][] = [
      ['/api/verify-subscription', { plan_type: 42 }, 'plan_type', serverMessages.unknownPlan],
      ['/api/verify-subscription', { plan_type: 'x'.repeat(201) }, 'plan_type', serverMessages.unknownPlan],
      [
        '/api/verify-subscription',
        { plan_type: 'monthly', session_id: { $ne: '' } },
        'session_id',
        serverMessages.validationFailed,
      ],
      [
        '/api/verify-subscription',
        { plan_type: 'monthly', customer_email: ['a@b.c'] },
        'customer_email',
        serverMessages.validationFailed,
      ],
      ['/api/create-subscription', { plan_type: ['monthly'] }, 'plan_type', serverMessages.unknownPlan],
      ['/api/create-subscription', { plan_type: 'monthly', base_url: 7 }, 'base_url', serverMessages.validationFailed],
    ];
    for (const [url, payload, field, detail] of cases) {
      const response = await post(url, headers, payload);
      expect(response.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(422);
      expect(response.json()).toMatchObject({
        code: 'validation_failed',
        detail,
        errors: [{ field, message: detail }],
      });
    }
    expect(await paymentsOf(user._id)).toEqual([]);
    const started = await ctx.database.db
      .selectFrom('checkout_sessions')
      .select('id')
      .where('user_id', '=', user._id)
      .execute();
    expect(started).toEqual([]);
  });
});

describe('create-subscription', () => {
  it('never sends the buyer back to an origin that is not ours', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    for (const [baseUrl, expected] of [
      ['https://evil.example.net', 'http://localhost:3000'],
      ['javascript:alert(1)', 'http://localhost:3000'],
      ['https://cards.example.com/some/page', 'https://cards.example.com'],
    ] as const) {
      const { sessionId } = await checkout(headers, 'generations', baseUrl);
      const session = await ctx.database.db
        .selectFrom('test_checkout_sessions')
        .selectAll()
        .where('id', '=', sessionId)
        .executeTakeFirstOrThrow();
      expect(session.success_url).toBe(`${expected}/account?success=true&plan=generations&session_id=${sessionId}`);
      expect(session.cancel_url).toBe(`${expected}/account?canceled=true`);
      expect(session.success_url).not.toContain('evil');
    }
  });

  it('refuses an unknown plan with 422 and a missing token with 401', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const unknown = await post('/api/create-subscription', headers, { plan_type: 'gold' });
    expectError(unknown, 422, 'validation_failed', serverMessages.unknownPlan);
    const anonymous = await ctx.app.inject({
      method: 'POST',
      url: '/api/create-subscription',
      payload: { plan_type: 'monthly' },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('answers 404 for a checkout page that does not exist', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/test-checkout/cs_test_nope' });
    expectError(response, 404, 'checkout_not_found', serverMessages.checkoutNotFound);
  });

  it('refuses webhooks in test mode: nothing to verify them with', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=abc' },
      payload: '{"type":"checkout.session.completed"}',
    });
    expectError(response, 400, 'invalid_signature', serverMessages.webhookSignatureInvalid);
  });
});
