/**
 * The installed app with no network (issue 37): the service worker opens the app offline, answers wait on the
 * device through reloads and closed tabs, and reach the server once each, with their times, when the network is back.
 * Its own server, so that the test reads the server's review log in its SQLite file.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serverMessages } from '@flashcards/shared/server-messages';
import Database from 'better-sqlite3';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeck, saveCards, signUpByApi } from './support/api';
import { launchProfile, useBrowser } from './support/browser';
import { signInWithToken } from './support/pages';
import { type RunningServer, repoRoot, startServer } from './support/server';

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

/** How many cards the device keeps for this queue path (the `kept` store, as the app writes it); null for none. */
async function keptQueueLength(page: Page, key: string): Promise<number | null> {
  return await page.evaluate(
    (path) =>
      new Promise<number | null>((resolve, reject) => {
        const open = indexedDB.open('flashcards-offline');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction('kept').objectStore('kept').get(path);
          get.onerror = () => reject(get.error);
          get.onsuccess = () => {
            open.result.close();
            const value: unknown = get.result?.value;
            resolve(Array.isArray(value) ? value.length : null);
          };
        };
      }),
    key,
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

/** The cards' scheduling state in the server's database, by id. */
function cardStates(cardIds: readonly string[]) {
  const db = new Database(path.join(server.dataDir, 'flashcards.db'), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(
        `SELECT id, state, reps, lapses, learning_steps, last_review FROM cards WHERE id IN (${cardIds.map(() => '?').join(',')}) ORDER BY id`,
      )
      .all(...cardIds) as { id: string; state: number; reps: number; lapses: number; last_review: number }[];
  } finally {
    db.close();
  }
}

/** A signed-in device on the review page, controlled by the service worker, with the deck's due cards kept. */
async function deviceOnReview(token: string, deckName: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext();
  const page = await context.newPage();
  await signInWithToken(page, token, '/review');
  await controlledByServiceWorker(page);
  await page.getByRole('button', { name: `Review Deck: ${deckName}` }).click();
  await page.getByTestId('swipe-card').waitFor();
  await page.reload();
  return { context, page };
}

/** Answers every card of the deck offline with `key`; the answers waiting on the device. */
async function answerOffline(device: { context: BrowserContext; page: Page }, deckName: string, count: number) {
  await device.context.setOffline(true);
  await device.page.getByText('Offline', { exact: true }).waitFor();
  await device.page.getByRole('button', { name: `Review Deck: ${deckName}` }).click();
  for (let answered = 1; answered <= count; answered++) await knowIt(device.page, answered);
  await device.page.getByText(`${count} answers waiting to sync`).waitFor();
  return await outbox(device.page);
}

/** Brings a device back online and waits until its queue is empty. */
async function syncBack(device: { context: BrowserContext; page: Page }, count: number): Promise<void> {
  await device.context.setOffline(false);
  await device.page.getByText(`${count} answers waiting to sync`).waitFor({ state: 'detached' });
  expect(await outbox(device.page)).toEqual([]);
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
    // The server's log is not read here: Chromium's emulated offline mode has let the new page's start-up sync
    // through once in CI, and what matters is read below: each answer applied exactly once, with its time.

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

describe('decks never opened online', () => {
  it('are kept on the device from the deck list: one opens offline with its cards', async () => {
    const context = await newContext();
    const page = await context.newPage();
    const { token, auth } = await signUpByApi(page.request, 'kept', 'Kept');
    const opened = `Opened ${Date.now().toString(36)}`;
    const unopened = `Unopened ${Date.now().toString(36)}`;
    await saveCards(page.request, auth, await createDeck(page.request, auth, opened), cardsOf(2, 'Seen'));
    const unopenedId = await createDeck(page.request, auth, unopened);
    await saveCards(page.request, auth, unopenedId, cardsOf(3, 'Unseen'));

    await signInWithToken(page, token, '/review');
    await controlledByServiceWorker(page);
    await page.getByRole('button', { name: `Review Deck: ${unopened}` }).waitFor();
    // The deck list keeps each studied deck's queue while the browser is idle; the unopened deck's is there.
    await expect.poll(() => keptQueueLength(page, `/cards/due?deck_id=${unopenedId}`), { timeout: 20_000 }).toBe(3);

    await context.setOffline(true);
    await page.reload();
    await page.getByText('Offline', { exact: true }).waitFor();
    await page.getByRole('button', { name: `Review Deck: ${unopened}` }).click();
    await page
      .getByTestId('swipe-card')
      .getByText(/Unseen question [1-3]\?/)
      .waitFor();
    await context.close();
  });
});

describe('two devices answering the same cards offline', () => {
  async function twoDevices(firstToSync: 'phone' | 'laptop') {
    const setup = await newContext();
    const { token, auth } = await signUpByApi(setup.request, `two-${firstToSync}`, 'Two devices');
    const deckName = `Commute ${firstToSync} ${Date.now().toString(36)}`;
    const deckId = await createDeck(setup.request, auth, deckName);
    // One more than they answer, so that no answered card comes back for a learning step in the session.
    const cardIds = await saveCards(setup.request, auth, deckId, cardsOf(4, 'Shared'));
    await setup.close();

    const phone = await deviceOnReview(token, deckName);
    const laptop = await deviceOnReview(token, deckName);
    // The phone answers every card first, the laptop later: the later answers win, each on the card as both saw it.
    await answerOffline(phone, deckName, 3);
    const later = await answerOffline(laptop, deckName, 3);
    const [first, second] = firstToSync === 'phone' ? [phone, laptop] : [laptop, phone];
    await syncBack(first, 3);
    await syncBack(second, 3);
    expect(reviewLog(cardIds)).toHaveLength(6);
    const states = cardStates(later.map((answer) => answer.card_id));
    expect(states).toHaveLength(3);
    for (const state of states) {
      const winner = later.find((answer) => answer.card_id === state.id);
      expect(state.last_review).toBe(Date.parse(winner?.reviewed_at ?? ''));
    }
    await phone.context.close();
    await laptop.context.close();
    return states.map(({ id: _id, last_review: _at, ...rest }) => rest);
  }

  it('end with the same card states whichever syncs first: the later answers applied to the common base', async () => {
    const phoneFirst = await twoDevices('phone');
    const laptopFirst = await twoDevices('laptop');
    expect(phoneFirst).toEqual(laptopFirst);
    expect(phoneFirst.map((state) => state.reps)).toEqual([1, 1, 1]);
  });
});

describe('a new version of the app during a session', () => {
  it('waits for the learner, and no answer is lost through its reload', async () => {
    const context = await newContext();
    const page = await context.newPage();
    const { token, auth } = await signUpByApi(page.request, 'update', 'Update');
    const deckName = `Update ${Date.now().toString(36)}`;
    const deckId = await createDeck(page.request, auth, deckName);
    const cardIds = await saveCards(page.request, auth, deckId, cardsOf(8, 'Update'));
    await signInWithToken(page, token, '/review');
    await controlledByServiceWorker(page);
    await page.getByRole('button', { name: `Review Deck: ${deckName}` }).click();
    await knowIt(page, 1);
    await context.setOffline(true);
    await knowIt(page, 2);
    await page.getByText('1 answers waiting to sync').waitFor();
    await context.setOffline(false);

    // A deployment changes the service worker while the session runs.
    const worker = path.join(repoRoot, 'apps/web/dist/sw.js');
    const deployed = readFileSync(worker, 'utf8');
    try {
      writeFileSync(worker, `${deployed}\n// the next version\n`);
      await page.evaluate(async () => {
        await (await navigator.serviceWorker.getRegistration())?.update();
      });
      await page.getByText('A new version is ready.').waitFor();
      // The session goes on under the old version until the learner reloads.
      await knowIt(page, 3);
      await context.setOffline(true);
      await knowIt(page, 4);
      await context.setOffline(false);
      await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Reload to update' }).click()]);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      await page.getByRole('button', { name: `Review Deck: ${deckName}` }).waitFor();
      await expect.poll(() => reviewLog(cardIds).length, { timeout: 20_000 }).toBe(4);
      expect(await outbox(page)).toEqual([]);
      expect(new Set(reviewLog(cardIds).map((row) => row.card_id)).size).toBe(4);
    } finally {
      writeFileSync(worker, deployed);
    }
    await context.close();
  });
});

describe('the installed app', () => {
  it('leaves the pages the server renders itself (the test-mode checkout) to the server', async () => {
    const context = await newContext();
    const page = await context.newPage();
    const { token } = await signUpByApi(page.request, 'checkout', 'Checkout');
    await signInWithToken(page, token, '/account');
    await controlledByServiceWorker(page);
    const response = await page.goto('/test-checkout/cs_unknown');
    expect(response?.fromServiceWorker()).toBe(false);
    expect(response?.status()).toBe(404);
    expect(await response?.text()).toContain(serverMessages.checkoutNotFound);
    await context.close();
  });

  it('opens /review with no network from the review shell, which paints before the app runs', async () => {
    const context = await newContext();
    const page = await context.newPage();
    const { token } = await signUpByApi(page.request, 'shell', 'Shell');
    await signInWithToken(page, token, '/review');
    await controlledByServiceWorker(page);
    await context.setOffline(true);
    const response = await page.goto('/review');
    expect(response?.fromServiceWorker()).toBe(true);
    expect(await response?.text()).toContain('data-prerendered="shell"');
    await page.getByText('Offline', { exact: true }).waitFor();
    await context.close();
  });

  it("passes Chromium's installability checks", async () => {
    const profile = mkdtempSync(path.join(tmpdir(), 'flashcards-e2e-profile-'));
    const context = await launchProfile(profile, server.url);
    const page = await context.newPage();
    await page.goto('/review');
    await controlledByServiceWorker(page);
    const session = await context.newCDPSession(page);
    const { installabilityErrors } = (await session.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    expect(installabilityErrors).toEqual([]);
    const manifest = (await session.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
    expect(manifest.url).toBe(`${server.url}/manifest.webmanifest`);
    expect(manifest.errors).toEqual([]);
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  });
});
