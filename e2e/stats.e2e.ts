/**
 * The statistics page end to end: an account with reviews given through the API, /stats in Chromium at desktop width
 * and on a 320 px phone (axe-clean, no sideways scrolling, charts drawn with a table behind each), the deck filter from
 * the deck settings, the Personalize scheduling panel, and the time zone taken from the browser after sign-in.
 */
import type { APIRequestContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createDeck, saveCards, signUpByApi } from './support/api';
import { seriousViolations } from './support/axe';
import { useBrowser } from './support/browser';
import { baseUrl, signInWithToken, waitForHydration } from './support/pages';

const browser = useBrowser();

async function pageIn(timezoneId: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const context = await browser().newContext({ baseURL: baseUrl(), viewport, bypassCSP: true, timezoneId });
  return context.newPage();
}

/** A learner with a deck of five cards, four of them answered today (three "Know it", one "Don't know"). */
async function seedLearner(request: APIRequestContext) {
  const { token, auth: headers } = await signUpByApi(request, 'stats', 'Stats');
  const deckName = `Anatomy ${Date.now().toString(36)}`;
  const deck = { _id: await createDeck(request, headers, deckName) };
  const cards = Array.from({ length: 5 }, (_, index) => ({
    question: `Bone ${index + 1}?`,
    answer: `Answer ${index}`,
  }));
  const saved = await saveCards(request, headers, deck._id, cards);
  for (const [index, cardId] of saved.slice(0, 4).entries()) {
    const result = index === 3 ? 'fail' : 'pass';
    expect((await request.post('/cards/review', { headers, data: { card_id: cardId, result } })).status()).toBe(200);
  }
  return { token, headers, deck, deckName };
}

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('/stats', () => {
  it('shows the year, forecast, retention, streak and cards by state, axe-clean at desktop width and 320 px', async () => {
    const page = await pageIn('Europe/Paris');
    const { token, headers, deck, deckName } = await seedLearner(page.request);
    await signInWithToken(page, token, '/review');

    // The browser's zone is saved after sign-in (the account started in UTC).
    await expect
      .poll(
        async () =>
          ((await (await page.request.get('/users/me', { headers })).json()) as { time_zone: string }).time_zone,
      )
      .toBe('Europe/Paris');

    // The top navigation leads to the page.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Statistics' }).click();
    await page.waitForURL('**/stats');
    await page.getByRole('heading', { level: 1, name: 'Statistics' }).waitFor();
    await page.getByText('1-day streak', { exact: true }).first().waitFor();
    await page.getByText(/^4 reviews on 1 of the last 365 days in all decks/).waitFor();
    await page.getByText(/^4 reviews, 75% answered/).waitFor();
    // Three charts drawn on canvases (Chart.js loaded by this page), each an image with a text alternative.
    const charts = page.getByRole('img');
    await expect.poll(() => charts.count()).toBe(3);
    await expect
      .poll(() =>
        page.evaluate(() =>
          [...document.querySelectorAll('canvas')].every((canvas) => canvas.width > 0 && canvas.height > 0),
        ),
      )
      .toBe(true);
    for (const label of await charts.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('aria-label')))) {
      expect(label?.length ?? 0).toBeGreaterThan(40);
    }
    // The tables behind the charts.
    await page.getByText('Show the forecast as a table').click();
    const forecastRows = page.getByRole('table', { name: /Cards due per day/ }).getByRole('row');
    expect(await forecastRows.count()).toBe(31);
    // One failed card is learning (due in a minute), three passed ones are in learning steps too: all due today.
    expect(await forecastRows.nth(1).getByRole('cell').innerText()).toBe('4');
    await page.getByText('Show the last 30 days as a table').click();
    await page.getByText('Show the year as a table').click();
    expect(await seriousViolations(page)).toEqual([]);

    // The Personalize scheduling panel: too few reviews yet, and it says so.
    await page.getByText('You have 4 reviews. Personalizing needs at least 400.').waitFor();
    expect(await page.getByRole('button', { name: 'Personalize now' }).isDisabled()).toBe(true);

    // 320 px: nothing wider than the screen, still accessible.
    await page.setViewportSize({ width: 320, height: 700 });
    await page.getByRole('heading', { level: 1, name: 'Statistics' }).waitFor();
    expect(await overflow(page)).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    // From the deck's settings to the statistics of that deck.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/review');
    await page.getByRole('heading', { name: deckName, level: 2 }).waitFor();
    await page.getByRole('button', { name: `Settings: ${deckName}` }).click();
    await page.getByRole('link', { name: `Statistics for ${deckName}` }).click();
    await page.waitForURL((url) => url.pathname === '/stats' && url.searchParams.get('deck_id') === deck._id);
    await page.getByText(new RegExp(`^4 reviews on 1 of the last 365 days in ${deckName}`)).waitFor();
    expect(await page.getByLabel('Deck').inputValue()).toBe(deck._id);
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('keeps /login free of the charting library', async () => {
    const page = await pageIn('UTC');
    const scripts: string[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response.url());
    });
    await page.goto('/login');
    await waitForHydration(page);
    await page.waitForLoadState('networkidle');
    const bodies = await Promise.all(scripts.map(async (url) => (await page.request.get(url)).text().catch(() => '')));
    expect(bodies.length).toBeGreaterThan(0);
    // Chart.js's registry error text: in the chart chunk only.
    expect(bodies.some((body) => body.includes('is not a registered'))).toBe(false);
    await page.context().close();
  });
});
