import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

/** Debian's chromium (apt-get install chromium); nothing is downloaded. CHROMIUM_PATH overrides the path. */
const launchOptions = () => ({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});

export async function launchBrowser(): Promise<Browser> {
  return await chromium.launch(launchOptions());
}

/**
 * A browser with a profile on disk (`userDataDir`), not an incognito context: what Chromium's installability checks
 * need.
 */
export async function launchProfile(userDataDir: string, baseURL: string): Promise<BrowserContext> {
  return await chromium.launchPersistentContext(userDataDir, { ...launchOptions(), baseURL });
}

/**
 * One browser for the test file: launched before its tests, closed after them. Call it at the top of the file;
 * the function it returns gives the browser inside the tests.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('the browser is not launched yet (call it inside a test or hook)');
    return browser;
  };
}
