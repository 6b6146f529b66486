import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { expectError } from '../../../test/support/api-error';
import { DEFAULT_PASSWORD, loginForm, signUpAndLogIn, uniqueEmail } from '../../../test/support/factories';
import { useTestApp } from '../../../test/support/test-app';

// What each login limit is keyed by (auth.service.ts): the per-email limit by the email together with the client
// address, the per-account limit by the email alone, the per-address limit by the address alone. A limit keyed by
// the wrong thing still answers 429 in a test that uses one email from one address, so these use several of each.

const ctx = useTestApp({
  env: { AUTH_RATE_LIMIT_PER_IP: '1000', AUTH_RATE_LIMIT_PER_EMAIL: '3', AUTH_RATE_LIMIT_PER_ACCOUNT: '7' },
});

async function account(): Promise<string> {
  const email = uniqueEmail('limits');
  await signUpAndLogIn(ctx.app, email);
  return email;
}

describe('POST /login, what each limit counts', () => {
  it('different emails from one address are not limited by the per-email rule', async () => {
    const emails = [await account(), await account(), await account(), await account()];
    for (const email of emails) {
      for (let attempt = 1; attempt <= 3; attempt++) {
        const response = await loginForm(ctx.app, email, `wrong ${attempt}`, '192.0.2.10');
        expectError(response, 401, 'invalid_credentials', serverMessages.invalidCredentials);
      }
    }
    // Twelve failures from this address so far, three per email: each email's own count is at its limit.
    for (const email of emails) {
      expectError(
        await loginForm(ctx.app, email, 'wrong', '192.0.2.10'),
        429,
        'rate_limited',
        serverMessages.rateLimited,
      );
    }
    const fresh = await account();
    expect((await loginForm(ctx.app, fresh, DEFAULT_PASSWORD, '192.0.2.10')).statusCode).toBe(200);
  });

  it('one email from one address is limited after 3 failures, even with the right password; another address is not', async () => {
    const email = await account();
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await loginForm(ctx.app, email, 'wrong', '198.51.100.20')).statusCode).toBe(401);
    }
    const limited = await loginForm(ctx.app, email, DEFAULT_PASSWORD, '198.51.100.20');
    expectError(limited, 429, 'rate_limited', serverMessages.rateLimited);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await loginForm(ctx.app, email, DEFAULT_PASSWORD, '198.51.100.21')).statusCode).toBe(200);
  });

  it('the same email from different addresses is limited: 7 failures in all, then a fresh address gets 429', async () => {
    const email = await account();
    const other = await account();
    for (let attempt = 1; attempt <= 7; attempt++) {
      const response = await loginForm(ctx.app, email, 'wrong', `203.0.113.${attempt}`);
      expectError(response, 401, 'invalid_credentials', serverMessages.invalidCredentials);
    }
    const fresh = await loginForm(ctx.app, email, DEFAULT_PASSWORD, '203.0.113.99');
    expectError(fresh, 429, 'rate_limited', serverMessages.rateLimited);
    // The account limit is the email's: another email from that same fresh address signs in.
    expect((await loginForm(ctx.app, other, DEFAULT_PASSWORD, '203.0.113.99')).statusCode).toBe(200);
  });
});
