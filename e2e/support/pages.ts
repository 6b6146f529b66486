import type { Browser, BrowserContext, Page } from 'playwright-core';
import { inject } from 'vitest';

export const baseUrl = () => inject('baseUrl');

/** A fresh browser profile (empty local storage), able to take axe-core's script despite the CSP. */
export async function newPage(browser: Browser, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const context: BrowserContext = await browser.newContext({ baseURL: baseUrl(), viewport, bypassCSP: true });
  return await context.newPage();
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

/**
 * Signs a new user up through the login page, lands on /create and closes its first-visit tutorial.
 * Returns the access token the browser stored.
 */
export async function signUpInBrowser(page: Page, name: string, email: string): Promise<string> {
  await page.goto('/login');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await page.waitForURL('**/create');
  await page.getByRole('dialog', { name: 'Welcome' }).waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  const token = await page.evaluate(() => localStorage.getItem('access_token'));
  if (!token) throw new Error('no access token after sign-up');
  return token;
}
