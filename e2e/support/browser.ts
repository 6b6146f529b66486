import { type Browser, chromium } from 'playwright-core';

/** Debian's chromium (apt-get install chromium); nothing is downloaded. CHROMIUM_PATH overrides the path. */
export async function launchBrowser(): Promise<Browser> {
  return await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}
