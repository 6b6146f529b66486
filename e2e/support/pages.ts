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
