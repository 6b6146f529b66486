import { describe, expect, it } from 'vitest';
import { seriousViolations } from './support/axe';
import { useBrowser } from './support/browser';
import { closeTutorial, newPage, pathOf, signUpInBrowser, submitSignUp, uniqueEmail } from './support/pages';

const browser = useBrowser();

describe('signing up, in and out', () => {
  it('sign up leads to /create; logout goes to / and on to /login', async () => {
    const page = await newPage(browser());
    await submitSignUp(page, uniqueEmail('ada'), 'Ada Lovelace');
    await page.getByRole('heading', { name: 'Create Cards', level: 1 }).waitFor();
    // A first visit to /create opens its tutorial; Escape closes it.
    await closeTutorial(page);
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toMatch(/\S+/);
    expect(await seriousViolations(page)).toEqual([]);

    // The feedback modal opens from the navigation bar, is accessible, and closes on Escape.
    await page.getByRole('button', { name: 'Feedback' }).click();
    await page.getByRole('dialog', { name: 'Send feedback' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    // Signed in: /login and unknown paths lead to /review.
    await page.goto('/login');
    await page.waitForURL('**/review');

    await page.getByRole('link', { name: 'Account', exact: true }).click();
    await page.waitForURL('**/account');
    const toRoot = page.waitForRequest(
      (request) => request.isNavigationRequest() && new URL(request.url()).pathname === '/',
    );
    await page.getByRole('button', { name: 'Logout' }).click();
    await toRoot;
    await page.waitForURL('**/login');
    await page.getByRole('tab', { name: 'Login' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
    await page.context().close();
  });

  it('log in with the wrong password shows the server message; the right one leads to /create', async () => {
    const email = uniqueEmail('bob');
    const page = await newPage(browser());
    const signup = await page.request.post('/signup', { data: { email, password: 'a-good-password', name: 'Bob' } });
    expect(signup.status()).toBe(201);
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Login' }).click();
    expect(await page.getByRole('alert').textContent()).toBe('Incorrect email or password.');
    expect(await pathOf(page)).toBe('/login');
    await page.getByLabel('Password').fill('a-good-password');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/create');
    await page.context().close();
  });

  it('the navigation bar links every signed-in screen, and its menu toggles on a phone', async () => {
    const page = await newPage(browser(), { width: 360, height: 740 });
    await signUpInBrowser(page, uniqueEmail('cy'));
    const menuLink = (name: string) => page.locator('#main-menu').getByRole('link', { name, exact: true });
    expect(await menuLink('Review').isVisible()).toBe(false);
    for (const [name, path] of [
      ['Review', '/review'],
      ['Quiz', '/quiz'],
      ['Create Cards', '/create'],
      ['Account', '/account'],
    ] as const) {
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('button', { name: 'Close menu' }).waitFor();
      await menuLink(name).click();
      await page.waitForURL(`**${path}`);
      // Following a link closes the menu again.
      await page.getByRole('button', { name: 'Open menu' }).waitFor();
      expect(await menuLink(name).isVisible()).toBe(false);
    }
    await page.context().close();
  });
});
