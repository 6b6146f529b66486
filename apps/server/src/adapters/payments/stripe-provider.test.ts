import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serverMessages } from '@flashcards/shared/server-messages';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectError } from '../../../test/support/api-error';
import { billingFieldsOf, paymentCountOf } from '../../../test/support/billing';
import { signUpAndLogIn } from '../../../test/support/factories';
import { createTestApp, type TestContext } from '../../../test/support/test-app';
import { createStripeProvider } from './stripe-provider';

// The Stripe adapter against a local HTTP server that answers the Stripe endpoints we call (the real SDK pointed
// at it through its host/port/protocol options), and webhooks signed with the SDK's test-header helper.

const WEBHOOK_SECRET = 'whsec_test_secret_for_signatures';
const DAY = 24 * 60 * 60;

interface FakeStripe {
  requests: { method: string; path: string; form: Record<string, string> }[];
  sessions: Map<string, Record<string, unknown>>;
  subscriptions: Map<string, Record<string, unknown>>;
}

const fake: FakeStripe = { requests: [], sessions: new Map(), subscriptions: new Map() };
let server: Server;
let ctx: TestContext;
const signer = new Stripe('sk_test_signer');
let counter = 0;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => resolve(body));
  });
}

function startFakeStripe(): Promise<number> {
  server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://stripe.local');
    const form = Object.fromEntries(new URLSearchParams(await readBody(request)));
    fake.requests.push({ method: request.method ?? '', path: url.pathname, form });
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_fake' });
      response.end(JSON.stringify(body));
    };
    const sessionMatch = /^\/v1\/checkout\/sessions\/([\w-]+)$/.exec(url.pathname);
    const subscriptionMatch = /^\/v1\/subscriptions\/([\w-]+)$/.exec(url.pathname);
    if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      const id = `cs_test_fake_${++counter}`;
      const session = {
        id,
        object: 'checkout.session',
        url: `https://checkout.stripe.test/c/pay/${id}`,
        status: 'open',
        payment_status: 'unpaid',
        mode: form.mode,
        client_reference_id: form.client_reference_id,
        metadata: { user_id: form['metadata[user_id]'], plan_type: form['metadata[plan_type]'] },
        amount_total: Number(form['line_items[0][price_data][unit_amount]'] ?? 0),
        currency: 'usd',
        customer: null,
        subscription: null,
      };
      fake.sessions.set(id, session);
      return send(200, session);
    }
    if (request.method === 'GET' && sessionMatch?.[1]) {
      const session = fake.sessions.get(sessionMatch[1]);
      return session
        ? send(200, session)
        : send(404, { error: { type: 'invalid_request_error', message: 'No such checkout.session' } });
    }
    if (request.method === 'GET' && subscriptionMatch?.[1]) {
      const subscription = fake.subscriptions.get(subscriptionMatch[1]);
      return subscription ? send(200, subscription) : send(404, { error: { type: 'invalid_request_error' } });
    }
    if (request.method === 'POST' && url.pathname === '/v1/billing_portal/sessions') {
      return send(200, {
        id: 'bps_fake',
        object: 'billing_portal.session',
        url: 'https://billing.stripe.test/p/session',
      });
    }
    return send(404, { error: { type: 'invalid_request_error', message: `unexpected ${url.pathname}` } });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/** Marks a fake session paid, as Stripe does once the buyer pays. */
function paySession(id: string, extra: Record<string, unknown> = {}) {
  const session = {
    ...fake.sessions.get(id),
    status: 'complete',
    payment_status: 'paid',
    customer: 'cus_fake_1',
    ...extra,
  };
  fake.sessions.set(id, session);
  return session;
}

function subscription(id: string, userId: string, periodEnd: number, extra: Record<string, unknown> = {}) {
  const body = {
    id,
    object: 'subscription',
    status: 'active',
    cancel_at_period_end: false,
    ended_at: null,
    metadata: { user_id: userId, plan_type: 'monthly' },
    items: { object: 'list', data: [{ id: 'si_1', object: 'subscription_item', current_period_end: periodEnd }] },
    ...extra,
  };
  fake.subscriptions.set(id, body);
  return body;
}

async function sendWebhook(
  type: string,
  object: unknown,
  options: { id?: string; secret?: string; timestamp?: number } = {},
) {
  const payload = JSON.stringify({
    id: options.id ?? `evt_${++counter}`,
    object: 'event',
    type,
    created: Math.floor(ctx.clock.now() / 1000),
    data: { object },
  });
  const signature = signer.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? WEBHOOK_SECRET,
    ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
  });
  return ctx.app.inject({
    method: 'POST',
    url: '/api/payments/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });
}

const billingOf = (userId: string) => billingFieldsOf(ctx.database.db, userId);

const paymentCount = (userId: string) => paymentCountOf(ctx.database.db, userId);

async function createCheckout(headers: Record<string, string>, planType: string) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/create-subscription',
    headers,
    payload: { plan_type: planType, base_url: 'https://evil.example.net' },
  });
  expect(response.statusCode, response.body).toBe(200);
  const sessionId = (fake.requests.at(-1)?.path === '/v1/checkout/sessions' ? `cs_test_fake_${counter}` : '') as string;
  return { checkoutUrl: response.json().checkout_url as string, sessionId, form: fake.requests.at(-1)?.form ?? {} };
}

beforeAll(async () => {
  const port = await startFakeStripe();
  ctx = await createTestApp({
    env: { PUBLIC_URL: 'https://cards.example.com', STRIPE_SECRET_KEY: 'sk_test_fake', AUTH_RATE_LIMIT_PER_IP: '1000' },
    payments: createStripeProvider({
      secretKey: 'sk_test_fake',
      webhookSecret: WEBHOOK_SECRET,
      priceIds: {},
      api: { host: '127.0.0.1', port, protocol: 'http' },
    }),
  });
});

beforeEach(() => {
  fake.requests.length = 0;
});

afterAll(async () => {
  await ctx.close();
  await new Promise((resolve) => server.close(resolve));
});

describe('Stripe checkout', () => {
  it('creates a payment-mode session for a pack, with our user, plan and return URLs', async () => {
    const { user, headers } = await signUpAndLogIn(ctx.app);
    const { checkoutUrl, form } = await createCheckout(headers, 'generations');
    expect(checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_fake_\d+$/);
    expect(form).toMatchObject({
      mode: 'payment',
      client_reference_id: user._id,
      customer_email: user.email,
      'metadata[user_id]': user._id,
      'metadata[plan_type]': 'generations',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '699',
      'line_items[0][price_data][product_data][name]': 'Generation Pack (50)',
      // base_url of another origin is ignored: the return goes to PUBLIC_URL.
      success_url: 'https://cards.example.com/account?success=true&plan=generations&session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://cards.example.com/account?canceled=true',
    });
    expect(form['line_items[0][price_data][recurring][interval]']).toBeUndefined();
  });

  it('creates a subscription-mode session for the monthly plan', async () => {
    const { user, headers } = await signUpAndLogIn(ctx.app);
    const { form } = await createCheckout(headers, 'monthly');
    expect(form).toMatchObject({
      mode: 'subscription',
      'line_items[0][price_data][unit_amount]': '2000',
      'line_items[0][price_data][recurring][interval]': 'month',
      'subscription_data[metadata][user_id]': user._id,
    });
  });
});

describe('Stripe webhooks', () => {
  it('grants a paid pack once: a replayed event grants nothing more', async () => {
    const { user, headers } = await signUpAndLogIn(ctx.app);
    const { sessionId } = await createCheckout(headers, 'generations');
    const session = paySession(sessionId);
    const first = await sendWebhook('checkout.session.completed', session, { id: 'evt_pack_1' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true });
    expect(await billingOf(user._id)).toMatchObject({ purchased_generations: 50, billing_customer_id: 'cus_fake_1' });
    const replay = await sendWebhook('checkout.session.completed', session, { id: 'evt_pack_1' });
    expect(replay.statusCode).toBe(200);
    // Verification after the webhook finds the same payment: still once.
    const verify = await ctx.app.inject({
      method: 'POST',
      url: '/api/verify-subscription',
      headers,
      payload: { plan_type: 'generations', session_id: sessionId },
    });
    expect(verify.json().success).toBe(true);
    expect((await billingOf(user._id)).purchased_generations).toBe(50);
    expect(await paymentCount(user._id)).toBe(1);
  });

  it('refuses a forged signature with 400 and grants nothing', async () => {
    const { user, headers } = await signUpAndLogIn(ctx.app);
    const { sessionId } = await createCheckout(headers, 'generations_100');
    const session = paySession(sessionId);
    const forged = await sendWebhook('checkout.session.completed', session, { secret: 'whsec_someone_else' });
    expectError(forged, 400, 'invalid_signature', serverMessages.webhookSignatureInvalid);
    const unsigned = await ctx.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ id: 'evt_x', type: 'checkout.session.completed', data: { object: session } }),
    });
    expect(unsigned.statusCode).toBe(400);
    expect((await billingOf(user._id)).purchased_generations).toBe(0);
    expect(await paymentCount(user._id)).toBe(0);
  });

  it('runs the monthly plan: start, renewal resets usage, cancellation keeps access, deletion ends it', async () => {
    const { user, headers } = await signUpAndLogIn(ctx.app);
    const { sessionId } = await createCheckout(headers, 'monthly');
    const now = Math.floor(ctx.clock.now() / 1000);
    subscription('sub_fake_1', user._id, now + 30 * DAY);
    const session = paySession(sessionId, { subscription: 'sub_fake_1', amount_total: 2000 });

    expect((await sendWebhook('checkout.session.completed', session)).statusCode).toBe(200);
    expect(await billingOf(user._id)).toMatchObject({
      plan_type: 'monthly',
      premium_quota: 300,
      premium_used: 0,
      subscription_id: 'sub_fake_1',
      subscription_end_date: (now + 30 * DAY) * 1000,
    });

    // The first invoice belongs to the checkout: no second grant.
    const firstInvoice = invoice('in_first', 'sub_fake_1', user._id, 'subscription_create', now + 30 * DAY);
    await sendWebhook('invoice.paid', firstInvoice);
    expect(await paymentCount(user._id)).toBe(1);

    await ctx.database.db.updateTable('users').set({ premium_used: 250 }).where('id', '=', user._id).execute();
    const renewal = invoice('in_renewal_1', 'sub_fake_1', user._id, 'subscription_cycle', now + 60 * DAY);
    expect((await sendWebhook('invoice.paid', renewal)).statusCode).toBe(200);
    expect(await billingOf(user._id)).toMatchObject({
      premium_quota: 300,
      premium_used: 0,
      subscription_end_date: (now + 60 * DAY) * 1000,
    });
    await ctx.database.db.updateTable('users').set({ premium_used: 3 }).where('id', '=', user._id).execute();
    await sendWebhook('invoice.paid', renewal);
    expect((await billingOf(user._id)).premium_used).toBe(3);
    expect(await paymentCount(user._id)).toBe(2);

    const cancelled = subscription('sub_fake_1', user._id, now + 60 * DAY, { cancel_at_period_end: true });
    await sendWebhook('customer.subscription.updated', cancelled);
    expect(await billingOf(user._id)).toMatchObject({
      subscription_cancel_at_period_end: 1,
      subscription_end_date: (now + 60 * DAY) * 1000,
      premium_quota: 300,
    });

    const deleted = subscription('sub_fake_1', user._id, now + 60 * DAY, {
      status: 'canceled',
      ended_at: now + 60 * DAY,
    });
    await sendWebhook('customer.subscription.deleted', deleted);
    expect((await billingOf(user._id)).subscription_end_date).toBe((now + 60 * DAY) * 1000);
  });

  it('an early deletion ends access at once, and a late event cannot extend it', async () => {
    const { user, headers } = await signUpAndLogIn(ctx.app);
    const { sessionId } = await createCheckout(headers, 'monthly');
    const now = Math.floor(ctx.clock.now() / 1000);
    subscription('sub_fake_2', user._id, now + 30 * DAY);
    await sendWebhook('checkout.session.completed', paySession(sessionId, { subscription: 'sub_fake_2' }));
    await sendWebhook(
      'customer.subscription.deleted',
      subscription('sub_fake_2', user._id, now + 30 * DAY, { status: 'canceled', ended_at: now + DAY }),
    );
    expect((await billingOf(user._id)).subscription_end_date).toBe((now + DAY) * 1000);
    await sendWebhook(
      'customer.subscription.deleted',
      subscription('sub_fake_2', user._id, now + 30 * DAY, { status: 'canceled', ended_at: now + 20 * DAY }),
    );
    expect((await billingOf(user._id)).subscription_end_date).toBe((now + DAY) * 1000);
  });

  it('answers 200 to events it does not act on', async () => {
    const response = await sendWebhook('customer.created', { id: 'cus_x', object: 'customer' });
    expect(response.statusCode).toBe(200);
  });
});

describe('Stripe verification and portal', () => {
  it('verifies a paid session with Stripe itself, and refuses an unpaid one', async () => {
    const { user, headers } = await signUpAndLogIn(ctx.app);
    const { sessionId } = await createCheckout(headers, 'generations');
    const verify = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/verify-subscription',
        headers,
        payload: { plan_type: 'generations', customer_email: user.email, customer_name: 'Ada', session_id: sessionId },
      });
    expect((await verify()).json()).toEqual({
      success: false,
      message: 'Error verifying generations subscription/purchase',
    });
    expect(fake.requests.some((request) => request.path === `/v1/checkout/sessions/${sessionId}`)).toBe(true);
    paySession(sessionId);
    expect((await verify()).json().success).toBe(true);
    expect((await verify()).json().success).toBe(true);
    expect((await billingOf(user._id)).purchased_generations).toBe(50);
    expect(await paymentCount(user._id)).toBe(1);
  });

  it('opens the billing portal for a paying customer, and says there is nothing to manage otherwise', async () => {
    const { user, headers } = await signUpAndLogIn(ctx.app);
    const none = await ctx.app.inject({ method: 'POST', url: '/api/billing-portal', headers });
    expectError(none, 404, 'no_billing_account', serverMessages.nothingToManage);
    const { sessionId } = await createCheckout(headers, 'generations');
    await sendWebhook('checkout.session.completed', paySession(sessionId, { customer: `cus_${user._id}` }));
    const portal = await ctx.app.inject({ method: 'POST', url: '/api/billing-portal', headers });
    expect(portal.statusCode).toBe(200);
    expect(portal.json()).toEqual({ url: 'https://billing.stripe.test/p/session' });
    expect(fake.requests.at(-1)?.form).toEqual({
      customer: `cus_${user._id}`,
      return_url: 'https://cards.example.com/account',
    });
  });
});

describe('webhooks that must grant nothing (audit)', () => {
  it('refuses a signature dated in the future with 400', async () => {
    const { user, headers } = await signUpAndLogIn(ctx.app);
    const { sessionId } = await createCheckout(headers, 'generations');
    const session = paySession(sessionId);
    const future = Math.floor(Date.now() / 1000) + 3600;
    const response = await sendWebhook('checkout.session.completed', session, { timestamp: future });
    expectError(response, 400, 'invalid_signature', serverMessages.webhookSignatureInvalid);
    expect((await billingOf(user._id)).purchased_generations).toBe(0);
    expect(await paymentCount(user._id)).toBe(0);
  });

  it('grants nothing when the amount paid is below the plan price (a 1-cent checkout of the 100 pack)', async () => {
    const { user, headers } = await signUpAndLogIn(ctx.app);
    const { sessionId } = await createCheckout(headers, 'generations_100');
    const session = paySession(sessionId, { amount_total: 1 });
    expect((await sendWebhook('checkout.session.completed', session)).statusCode).toBe(200);
    expect((await billingOf(user._id)).purchased_generations).toBe(0);
    expect(await paymentCount(user._id)).toBe(0);
    const otherCurrency = paySession(sessionId, { amount_total: 1200, currency: 'jpy' });
    expect((await sendWebhook('checkout.session.completed', otherCurrency)).statusCode).toBe(200);
    expect((await billingOf(user._id)).purchased_generations).toBe(0);
  });

  it('grants nothing for an invoice of a subscription no checkout of ours started, whatever its metadata says', async () => {
    const { user } = await signUpAndLogIn(ctx.app);
    const now = Math.floor(ctx.clock.now() / 1000);
    const unknown = invoice('in_unknown_1', 'sub_never_seen', user._id, 'subscription_cycle', now + 30 * DAY);
    expect((await sendWebhook('invoice.paid', unknown)).statusCode).toBe(200);
    expect(await billingOf(user._id)).toMatchObject({ premium_quota: 0, plan_type: null, subscription_id: null });
    expect(await paymentCount(user._id)).toBe(0);
  });
});

function invoice(id: string, subscriptionId: string, userId: string, reason: string, periodEnd: number) {
  return {
    id,
    object: 'invoice',
    billing_reason: reason,
    amount_paid: 2000,
    currency: 'usd',
    period_end: periodEnd - 30 * DAY,
    parent: {
      type: 'subscription_details',
      subscription_details: { subscription: subscriptionId, metadata: { user_id: userId } },
    },
    lines: { object: 'list', data: [{ id: 'il_1', period: { start: periodEnd - 30 * DAY, end: periodEnd } }] },
  };
}
