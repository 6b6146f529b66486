/**
 * The installed app with no network (issue 37): the service worker opens the app offline, answers wait on the
 * device through reloads and closed tabs, and reach the server once each, with their times, when the network is back.
 * Its own server, so that the test reads the server's review log in its SQLite file.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeck, saveCards, signUpByApi } from './support/api';
import { useBrowser } from './support/browser';
import { signInWithToken } from './support/pages';
import { type RunningServer, startServer } from './support/server';

const browser = useBrowser();
let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

interface Waiting {
  id: string;
  card_id: string;
  reviewed_at: string;
}

async function newContext(): Promise<BrowserContext> {
  return await browser().newContext({ baseURL: server.url, viewport: { width: 1280, height: 900 } });
}

/**
 * Waits until the service worker is active, then reloads so that it controls the page: only a controlled page
 * opens again with no network.
 */
async function controlledByServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

/** The answers waiting in the device's queue (IndexedDB), read as the app stores them. */
async function outbox(page: Page): Promise<Waiting[]> {
  return await page.evaluate(
    () =>
      new Promise<Waiting[]>((resolve, reject) => {
        const open = indexedDB.open('flashcards-offline');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('outbox').objectStore('outbox').getAll();
          all.onerror = () => reject(all.error);
          all.onsuccess = () => {
            open.result.close();
            resolve(all.result as Waiting[]);
          };
        };
      }),
  );
}

/** The server's review log for these cards: each answer's id and time. */
function reviewLog(cardIds: readonly string[]): { id: string; card_id: string; reviewed_at: number }[] {
  const db = new Database(path.join(server.dataDir, 'flashcards.db'), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(
        `SELECT id, card_id, reviewed_at FROM review_logs WHERE card_id IN (${cardIds.map(() => '?').join(',')}) ORDER BY reviewed_at, id`,
      )
      .all(...cardIds) as { id: string; card_id: string; reviewed_at: number }[];
  } finally {
    db.close();
  }
}

/** Shows the answer of the card on screen and answers "Know it"; waits until the session has counted it. */
async function knowIt(page: Page, answered: number): Promise<void> {
  await page.getByTestId('swipe-card').getByText('Question', { exact: true }).waitFor();
  await page.keyboard.press('Space');
  await page.getByTestId('swipe-card').getByText('Answer', { exact: true }).waitFor();
  await page.keyboard.press('d');
  await page
    .getByRole('progressbar', { name: 'Review progress' })
    .and(page.locator(`[aria-valuenow="${answered}"]`))
    .waitFor();
}

const cardsOf = (count: number, topic: string) =>
  Array.from({ length: count }, (_, i) => ({ question: `${topic} question ${i + 1}?`, answer: `Answer ${i + 1}.` }));

describe('review with no network', () => {
  it('reviews ten cards offline through a reload and a closed tab, then syncs each answer once with its time', async () => {
    const context = await newContext();
    const page = await context.newPage();
    const { token, auth } = await signUpByApi(page.request, 'offline', 'Offline');
    const deckName = `Underground ${Date.now().toString(36)}`;
    const deckId = await createDeck(page.request, auth, deckName);
    const cardIds = await saveCards(page.request, auth, deckId, cardsOf(12, 'Tube'));

    await signInWithToken(page, token, '/review');
    await controlledByServiceWorker(page);
    const review = page.getByRole('button', { name: `Review Deck: ${deckName}` });
    // Opened once online: the deck's due cards are kept on the device.
    await review.click();
    await page.getByTestId('swipe-card').waitFor();

    await context.setOffline(true);
    await page.reload();
    await page.getByText('Offline', { exact: true }).waitFor();
    await review.click();
    for (let answered = 1; answered <= 10; answered++) await knowIt(page, answered);
    await page.getByText('10 answers waiting to sync').waitFor();
    const waiting = await outbox(page);
    expect(waiting).toHaveLength(10);
    expect(new Set(waiting.map((answer) => answer.card_id)).size).toBe(10);
    await page.close();

    const reopened = await context.newPage();
    await reopened.goto('/review');
    await reopened.getByText('Offline', { exact: true }).waitFor();
    await reopened.getByText('10 answers waiting to sync').waitFor();
    await reopened.getByRole('button', { name: `Review Deck: ${deckName}` }).waitFor();
    expect(await outbox(reopened)).toEqual(expect.arrayContaining(waiting));
    expect(reviewLog(cardIds)).toEqual([]);

    await context.setOffline(false);
    await reopened.getByText('10 answers waiting to sync').waitFor({ state: 'detached' });
    expect(await outbox(reopened)).toEqual([]);
    const log = reviewLog(cardIds);
    const expected = waiting
      .map((answer) => ({ id: answer.id, card_id: answer.card_id, reviewed_at: Date.parse(answer.reviewed_at) }))
      .sort((a, b) => a.reviewed_at - b.reviewed_at || (a.id < b.id ? -1 : 1));
    expect(log).toEqual(expected);

    // A second sync of the same answers (a lost reply) changes nothing.
    const again = await reopened.request.post('/reviews/sync', {
      headers: auth,
      data: { reviews: waiting.map(({ id, card_id, reviewed_at }) => ({ id, card_id, result: 'pass', reviewed_at })) },
    });
    expect(again.status()).toBe(200);
    const results = ((await again.json()) as { results: { status: string }[] }).results;
    expect(results.map((result) => result.status)).toEqual(Array(10).fill('duplicate'));
    expect(reviewLog(cardIds)).toEqual(expected);
    await context.close();
  });
});
