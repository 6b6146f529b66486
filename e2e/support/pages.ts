import type { Browser, BrowserContext, Page } from 'playwright-core';
import { inject } from 'vitest';

export const baseUrl = () => inject('baseUrl');

/** The password every test user signs up with. */
export const PASSWORD = 'correct horse battery';

/** A fresh browser profile (empty local storage), able to take axe-core's script despite the CSP. */
export async function newPage(browser: Browser, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const context: BrowserContext = await browser.newContext({ baseURL: baseUrl(), viewport, bypassCSP: true });
  return await context.newPage();
}

/**
 * Waits until React has adopted the page's prerendered nodes (it marks each with its fiber): before that, a click
 * on a prerendered control does nothing.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    Object.keys(document.getElementById('main') ?? {}).some((key) => key.startsWith('__reactFiber')),
  );
}

let counter = 0;
/** An email address no other test uses. */
export function uniqueEmail(label: string): string {
  counter++;
  return `${label}-${Date.now().toString(36)}-${counter}@example.com`;
}

export async function pathOf(page: Page): Promise<string> {
  return new URL(page.url()).pathname;
}

/** Fills and sends the Sign Up form (the name only when given) and waits for /create. */
export async function submitSignUp(page: Page, email: string, name?: string): Promise<void> {
  await page.goto('/login');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  if (name !== undefined) await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await page.waitForURL('**/create');
}

/** Closes the tutorial that a first visit to /create opens (Escape), once it has opened. */
export async function closeTutorial(page: Page): Promise<void> {
  await page.getByRole('dialog', { name: 'Welcome' }).waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
}

/**
 * Signs a new user up through the login page, lands on /create and closes its first-visit tutorial.
 * Returns the access token the browser stored.
 */
export async function signUpInBrowser(page: Page, email: string, name?: string): Promise<string> {
  await submitSignUp(page, email, name);
  await closeTutorial(page);
  const token = await page.evaluate(() => localStorage.getItem('access_token'));
  if (!token) throw new Error('no access token after sign-up');
  return token;
}

/** Opens a page signed in as the owner of `token` (put in local storage, as the app keeps it). */
export async function signInWithToken(page: Page, token: string, path: string): Promise<void> {
  await page.goto('/login');
  await page.evaluate((value) => localStorage.setItem('access_token', value), token);
  await page.goto(path);
}
