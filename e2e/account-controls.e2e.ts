/**
 * Account controls on /account, end to end against the real server: change the password (the page signs in again
 * with it), sign out everywhere (an old token is refused), and delete the account (its token and login stop working).
 */

import { describe, expect, it } from 'vitest';
import { seriousViolations } from './support/axe';
import { useBrowser } from './support/browser';
import { newPage, PASSWORD, signUpInBrowser, uniqueEmail } from './support/pages';

const browser = useBrowser();

describe('account controls', () => {
  it('changes the password, signs out everywhere and deletes the account from /account', async () => {
    const page = await newPage(browser());
    const email = uniqueEmail('acct');
    const firstToken = await signUpInBrowser(page, email, 'Ada Account');

    await page.goto('/account');
    await page.getByRole('heading', { name: 'Sign-in and security' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // Change password: the old token dies, the page keeps working with a new one.
    await page.getByLabel('Current password (leave empty if you have only used Google)').fill(PASSWORD);
    await page.getByLabel('New password', { exact: true }).fill('a new secret phrase');
    await page.getByLabel('New password again').fill('a new secret phrase');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed. You were signed out everywhere else.').waitFor();
    const oldMe = await page.request.get('/users/me', { headers: { authorization: `Bearer ${firstToken}` } });
    expect(oldMe.status()).toBe(401);
    const secondToken = await page.evaluate(() => localStorage.getItem('access_token'));
    expect(secondToken).not.toBe(firstToken);
    const login = await page.request.post('/login', { form: { username: email, password: 'a new secret phrase' } });
    expect(login.status()).toBe(200);
    const apiToken = ((await login.json()) as { access_token: string }).access_token;

    // Sign out everywhere: the page goes home, and the token from the API login is refused too.
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    const afterSignOut = await page.request.get('/users/me', { headers: { authorization: `Bearer ${apiToken}` } });
    expect(afterSignOut.status()).toBe(401);

    // Sign in again through the API, put the token in the browser, and delete the account.
    const again = await page.request.post('/login', { form: { username: email, password: 'a new secret phrase' } });
    const token = ((await again.json()) as { access_token: string }).access_token;
    await page.evaluate((value) => localStorage.setItem('access_token', value), token);
    await page.goto('/account');
    await page.getByRole('heading', { name: 'Delete account' }).waitFor();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByLabel('Password', { exact: true }).fill('a new secret phrase');
    await page.getByRole('button', { name: 'Delete account' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    const gone = await page.request.get('/users/me', { headers: { authorization: `Bearer ${token}` } });
    expect(gone.status()).toBe(401);
    const noLogin = await page.request.post('/login', { form: { username: email, password: 'a new secret phrase' } });
    expect(noLogin.status()).toBe(401);
  });
});
