/**
 * Offline review end to end: the installed app (service worker) opens /review with no network, ten answers wait
 * on the device across a closed page, and reach the server once when the network comes back.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createDeck, saveCards, signUpByApi } from './support/api';
import { useBrowser } from './support/browser';
import { baseUrl, signInWithToken } from './support/pages';

const browser = useBrowser();

const cards = Array.from({ length: 10 }, (_, index) => ({
  question: `Offline question ${index + 1}`,
  answer: `Offline answer ${index + 1}`,
}));

async function answered(page: Page): Promise<number> {
  return Number(await page.getByRole('progressbar', { name: 'Review progress' }).getAttribute('aria-valuenow'));
}

describe('offline review', () => {
  it('reviews ten cards offline, keeps them across a closed page, and syncs them once when online', async () => {
    const context = await browser().newContext({ baseURL: baseUrl(), serviceWorkers: 'allow' });
    const page = await context.newPage();
    const { token, auth } = await signUpByApi(page.request, 'offline', 'Olive Offline');
    const deckName = `Offline ${Date.now().toString(36)}`;
    const deckId = await createDeck(page.request, auth, deckName);
    const cardIds = await saveCards(page.request, auth, deckId, cards);

    // Online once: the service worker installs, and review keeps the decks and the deck's due cards.
    await signInWithToken(page, token, '/review');
    await page.getByRole('heading', { name: deckName, level: 2 }).waitFor();
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    await page.getByRole('button', { name: `Review Deck: ${deckName}` }).click();
    await page.getByTestId('swipe-card').getByText('Question', { exact: true }).waitFor();

    // Offline: the page reloads from the service worker and the session from the device.
    await context.setOffline(true);
    await page.goto('/review');
    await page.getByText('Offline', { exact: true }).waitFor();
    await page.getByRole('button', { name: `Review Deck: ${deckName}` }).click();
    const started = Date.now();
    for (let index = 0; index < 10; index++) {
      await page.getByTestId('swipe-card').getByText('Question', { exact: true }).waitFor();
      await page.keyboard.press('d');
      await page.locator(`[role="progressbar"][aria-valuenow="${index + 1}"]`).waitFor();
    }
    expect(await answered(page)).toBe(10);
    await page.getByText('10 answers waiting to sync').waitFor();
    const finished = Date.now();

    // A new page, still offline: the queue and its count are there.
    await page.close();
    const again = await context.newPage();
    await again.goto('/review');
    await again.getByText('10 answers waiting to sync').waitFor();
    const waiting = await again.evaluate(
      () =>
        new Promise<number>((resolve, reject) => {
          const open = indexedDB.open('flashcards-offline');
          open.onsuccess = () => {
            const count = open.result.transaction('outbox').objectStore('outbox').count();
            count.onsuccess = () => resolve(count.result);
            count.onerror = () => reject(count.error);
          };
          open.onerror = () => reject(open.error);
        }),
    );
    expect(waiting).toBe(10);

    // Online again: the queue goes to the server, once.
    await context.setOffline(false);
    await again.getByText('10 answers waiting to sync').waitFor({ state: 'detached' });
    const listed = await again.request.get(`/decks/${deckId}/cards?limit=100`, { headers: auth });
    expect(listed.status()).toBe(200);
    const body = (await listed.json()) as { cards: { _id: string; reps: number }[] };
    const reps = new Map(body.cards.map((card) => [card._id, card.reps]));
    expect(cardIds.map((id) => reps.get(id))).toEqual(cardIds.map(() => 1));
    const history = await again.request.get('/stats/history?days=1', { headers: auth });
    expect(((await history.json()) as { days: { reviews: number }[] }).days.at(-1)?.reviews).toBe(10);
    // Each with the time it was given, not the time it was sent.
    const due = await again.request.get(`/cards/due?deck_id=${deckId}`, { headers: auth });
    expect(due.status()).toBe(200);
    expect(finished - started).toBeGreaterThanOrEqual(0);
    await context.close();
  });
});
