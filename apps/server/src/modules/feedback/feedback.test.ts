import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../../../test/support/api-error';
import { signUpAndLogIn } from '../../../test/support/factories';
import { useTestApp } from '../../../test/support/test-app';

let address = 0;
/** A fresh client address per test, so that the rate limit of one test does not reach the next. */
const nextAddress = () => `10.0.0.${++address}`;

const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000', FEEDBACK_RATE_LIMIT_PER_HOUR: '3' } });

const send = (payload: unknown, remoteAddress: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'POST', url: '/send-feedback', payload: payload as object, remoteAddress, headers });

const stored = (text: string) =>
  ctx.database.db.selectFrom('feedback').selectAll().where('feedback', '=', text).execute();

describe('POST /send-feedback', () => {
  it('needs no login, stores the feedback with its optional email and answers 201 { ok: true }', async () => {
    const response = await send({ feedback: '  Love the swipe reviews!  ', email: ' Ada@Example.com ' }, nextAddress());
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ ok: true });
    const rows = await stored('Love the swipe reviews!');
    expect(rows).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        user_id: null,
        email: 'ada@example.com',
        feedback: 'Love the swipe reviews!',
        created_at: ctx.clock.now(),
      },
    ]);
  });

  it.each([[{}], [{ email: '' }], [{ email: null }]])('takes the email as optional: %j', async (extra) => {
    const text = `No email ${JSON.stringify(extra)}`;
    const response = await send({ feedback: text, ...extra }, nextAddress());
    expect(response.statusCode).toBe(201);
    expect((await stored(text))[0]?.email).toBeNull();
  });

  it('links the feedback to the account when a valid token is sent, and ignores a bad one', async () => {
    const { headers, user } = await signUpAndLogIn(ctx.app);
    expect((await send({ feedback: 'Signed in' }, nextAddress(), headers)).statusCode).toBe(201);
    expect((await stored('Signed in'))[0]?.user_id).toBe(user._id);
    const forged = { authorization: 'Bearer not.a.token' };
    expect((await send({ feedback: 'Bad token' }, nextAddress(), forged)).statusCode).toBe(201);
    expect((await stored('Bad token'))[0]?.user_id).toBeNull();
  });

  it.each([
    [{ feedback: '' }, serverMessages.feedbackEmpty, 'feedback'],
    [{ feedback: '   ' }, serverMessages.feedbackEmpty, 'feedback'],
    [{ email: 'a@example.com' }, serverMessages.feedbackEmpty, 'feedback'],
    [{ feedback: 'f'.repeat(5001) }, serverMessages.feedbackTooLong, 'feedback'],
    [{ feedback: 'Hi', email: 'not-an-email' }, serverMessages.invalidEmail, 'email'],
  ])('refuses %# with 422 and stores nothing', async (payload, detail, field) => {
    const before = await ctx.database.db.selectFrom('feedback').select('id').execute();
    const response = await send(payload, nextAddress());
    expectValidationError(response, field, detail);
    expect(await ctx.database.db.selectFrom('feedback').select('id').execute()).toHaveLength(before.length);
  });

  it('limits each client address (3 an hour here) with 429 and Retry-After', async () => {
    const ip = nextAddress();
    for (const n of [1, 2, 3]) expect((await send({ feedback: `Burst ${n}` }, ip)).statusCode).toBe(201);
    const limited = await send({ feedback: 'Burst 4' }, ip);
    expectError(limited, 429, 'rate_limited', serverMessages.rateLimited);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await stored('Burst 4')).toEqual([]);
    // Another address is not affected.
    expect((await send({ feedback: 'Burst 5' }, nextAddress())).statusCode).toBe(201);
  });
});
