/**
 * The installed app on the device (issue 37), in Debian's chromium against the real server (started as `npm start`
 * does, so the web app is built first when stale; SQLite, loopback, any free port or BENCH_PORT). Three parts
 * (`BENCH_ONLY=sync|storage|repeat` runs one):
 * - sync: 500 answers (250 cards, a fail then a pass 10 minutes later) waiting in the device's queue (IndexedDB,
 *   written as the app writes them, the page reloaded offline so that the app counts them), then Chromium's network
 *   switch turned back on: time from that switch to the server's review log holding all 500 (read in its SQLite
 *   file), and to the device's queue being empty. OFFLINE_BENCH_SYNC_RUNS runs (default 3), each on cards of its own.
 *   Goal: <= 5 s.
 * - storage: 2,000 due cards (OFFLINE_BENCH_CARDS), each with an image (a JPEG made by sharp, OFFLINE_BENCH_IMAGE_PX
 *   wide, default 480), uploaded through POST /media: each its own, or OFFLINE_BENCH_IMAGES distinct ones shared
 *   in turn (uploads take about a second each on a loaded machine); the learner opens review once online on a browser profile on disk, and the
 *   app keeps the queue and the images on the device. Then navigator.storage.estimate() (with Chromium's usage
 *   details), each Cache Storage cache's bytes and the kept queue's JSON bytes, before and after. Goal: <= 50 MB.
 *   The server's queue holds at most limits.maxReviewQueue (200) cards: the app keeps that many, not 2,000.
 * - repeat: a repeat visit to /review controlled by the service worker, at 4x CPU (Emulation.setCPUThrottlingRate),
 *   online and offline, OFFLINE_BENCH_VISITS times each (default 5): first contentful paint, largest contentful
 *   paint and the deck list shown, from the navigation's start. Goal: <= 1 s.
 */

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { launchBrowser, launchProfile } from '../e2e/support/browser';
import { type RunningServer, startServer } from '../e2e/support/server';
import { overHttp, signUpAndLogIn } from './support/accounts';
import { percentile } from './support/study-account';

const PASSWORD = 'correct horse battery';
const only = process.env.BENCH_ONLY;
const MINUTE = 60_000;

const print = (line = '') => process.stdout.write(`${line}\n`);
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(2)} MB`;

function summary(label: string, samples: number[], goal: number): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const median = percentile(sorted, 50);
  const max = sorted.at(-1) ?? Number.NaN;
  return `  ${label.padEnd(44)} median ${median.toFixed(0).padStart(5)} ms  max ${max.toFixed(0).padStart(5)} ms  (n=${samples.length}; goal ${goal} ms: ${max <= goal ? 'within' : 'OVER'})`;
}

async function api(baseUrl: string, urlPath: string, init: RequestInit, expected: number): Promise<unknown> {
  const response = await fetch(`${baseUrl}${urlPath}`, init);
  if (response.status !== expected) throw new Error(`${urlPath}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? null : await response.json();
}

interface Learner {
  token: string;
  auth: { authorization: string };
  deckId: string;
  deckName: string;
}

/** A new learner with one empty deck whose daily new-card limit is `newPerDay`. */
async function newLearner(baseUrl: string, newPerDay: number): Promise<Learner> {
  const email = `bench-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}@example.com`;
  const json = { 'content-type': 'application/json' };
  const token = await signUpAndLogIn(overHttp(baseUrl), email, PASSWORD);
  const auth = { authorization: `Bearer ${token}` };
  const deckName = `Bench ${Date.now().toString(36)}`;
  const deck = (await api(
    baseUrl,
    '/decks',
    { method: 'POST', headers: auth, body: new URLSearchParams({ deck_name: deckName }) },
    201,
  )) as {
    _id: string;
  };
  await api(
    baseUrl,
    `/decks/${deck._id}/settings`,
    { method: 'PUT', headers: { ...auth, ...json }, body: JSON.stringify({ daily_new_card_limit: newPerDay }) },
    200,
  );
  return { token, auth, deckId: deck._id, deckName };
}

/** Saves the cards 500 at a time; their ids in order. */
async function saveCards(
  baseUrl: string,
  learner: Learner,
  cards: { question: string; answer: string; images?: string[] }[],
): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < cards.length; start += 500) {
    const saved = (await api(
      baseUrl,
      '/save-cards',
      {
        method: 'POST',
        headers: { ...learner.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ deck_id: learner.deckId, cards: cards.slice(start, start + 500) }),
      },
      201,
    )) as { cards: { _id: string }[] };
    ids.push(...saved.cards.map((card) => card._id));
  }
  return ids;
}

async function signIn(page: Page, token: string, to: string): Promise<void> {
  await page.goto('/login');
  // The app's own session check (GET /users/me) must not be cut short by the next navigation.
  await page.waitForLoadState('networkidle');
  await page.evaluate((value) => localStorage.setItem('access_token', value), token);
  await page.goto(to);
}

/** Waits until the service worker is active, then reloads so that it controls the page. */
async function controlledByServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

function reviewCount(server: RunningServer, cardIds: readonly string[]): number {
  const db = new Database(path.join(server.dataDir, 'flashcards.db'), { readonly: true, fileMustExist: true });
  try {
    const row = db
      .prepare(`SELECT count(*) AS n FROM review_logs WHERE card_id IN (${cardIds.map(() => '?').join(',')})`)
      .get(...cardIds) as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}

/** Writes the answers into the app's queue (IndexedDB `flashcards-offline`, store `outbox`). */
async function fillOutbox(page: Page, answers: unknown[]): Promise<void> {
  await page.evaluate(
    (items) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('flashcards-offline');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('outbox', 'readwrite');
          for (const item of items) tx.objectStore('outbox').put(item);
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    answers,
  );
}

async function benchSync(server: RunningServer): Promise<void> {
  const runs = Number(process.env.OFFLINE_BENCH_SYNC_RUNS ?? 3);
  const browser = await launchBrowser();
  const toServer: number[] = [];
  const toEmpty: number[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const learner = await newLearner(server.url, 250);
      const cardIds = await saveCards(
        server.url,
        learner,
        Array.from({ length: 250 }, (_, i) => ({ question: `Sync ${run} question ${i}?`, answer: `Answer ${i}` })),
      );
      const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await signIn(page, learner.token, '/review');
      await controlledByServiceWorker(page);
      await page.getByRole('button', { name: `Review Deck: ${learner.deckName}`, exact: true }).waitFor();
      await context.setOffline(true);
      const now = Date.now();
      const answers = cardIds.flatMap((cardId, index) => {
        const at = now - 6 * 60 * MINUTE + index * MINUTE;
        const fail = new Date(at).toISOString();
        return [
          { id: randomUUID(), card_id: cardId, result: 'fail', reviewed_at: fail, base: null },
          {
            id: randomUUID(),
            card_id: cardId,
            result: 'pass',
            reviewed_at: new Date(at + 10 * MINUTE).toISOString(),
            base: fail,
          },
        ];
      });
      await fillOutbox(page, answers);
      await page.reload();
      await page.getByText('500 answers waiting to sync').waitFor();
      const started = performance.now();
      await context.setOffline(false);
      const emptied = page
        .getByText('500 answers waiting to sync')
        .waitFor({ state: 'detached', timeout: 120_000 })
        .then(() => performance.now() - started);
      for (;;) {
        if (reviewCount(server, cardIds) >= answers.length) break;
        if (performance.now() - started > 120_000) throw new Error('the server did not hold the 500 answers in 120 s');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      toServer.push(performance.now() - started);
      toEmpty.push(await emptied);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  print(`sync: 500 answers waiting on the device, network back (load average ${load()})`);
  print(summary('network on -> the server holds all 500', toServer, 5_000));
  print(summary('network on -> the device queue empty', toEmpty, 5_000));
}

/** Each cache's bytes (the responses' bodies) and entries, in the page. */
async function cacheSizes(page: Page): Promise<Record<string, { entries: number; bytes: number }>> {
  return await page.evaluate(async () => {
    const sizes: Record<string, { entries: number; bytes: number }> = {};
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      let bytes = 0;
      const requests = await cache.keys();
      for (const request of requests) bytes += (await (await cache.match(request))?.blob())?.size ?? 0;
      sizes[name] = { entries: requests.length, bytes };
    }
    return sizes;
  });
}

interface Estimate {
  usage: number;
  usageDetails?: Record<string, number>;
}

const estimate = (page: Page) => page.evaluate(() => navigator.storage.estimate()) as Promise<Estimate>;

async function keptBytes(page: Page): Promise<{ entries: number; cards: number; bytes: number }> {
  return await page.evaluate(
    () =>
      new Promise<{ entries: number; cards: number; bytes: number }>((resolve, reject) => {
        const open = indexedDB.open('flashcards-offline');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('kept').objectStore('kept').getAll();
          all.onsuccess = () => {
            open.result.close();
            const cards = all.result
              .filter((entry) => String(entry.key).startsWith('/cards/due'))
              .reduce((sum, entry) => sum + (Array.isArray(entry.value) ? entry.value.length : 0), 0);
            resolve({ entries: all.result.length, cards, bytes: JSON.stringify(all.result).length });
          };
          all.onerror = () => reject(all.error);
        };
      }),
  );
}

function printStorage(label: string, usage: Estimate, sizes: Record<string, { entries: number; bytes: number }>) {
  const details = Object.entries(usage.usageDetails ?? {})
    .map(([kind, bytes]) => `${kind} ${mb(bytes)}`)
    .join(', ');
  print(`  ${label}: storage.estimate() ${mb(usage.usage)}${details ? ` (${details})` : ''}`);
  for (const [name, size] of Object.entries(sizes))
    print(`    cache ${name}: ${size.entries} entries, ${mb(size.bytes)}`);
}

async function benchStorage(server: RunningServer): Promise<void> {
  const count = Number(process.env.OFFLINE_BENCH_CARDS ?? 2_000);
  const width = Number(process.env.OFFLINE_BENCH_IMAGE_PX ?? 480);
  const learner = await newLearner(server.url, count);
  const started = performance.now();
  const distinct = Math.min(count, Number(process.env.OFFLINE_BENCH_IMAGES ?? count));
  const images: string[] = new Array(distinct);
  let imageBytes = 0;
  let next = 0;
  // Four uploads at a time: each image is decoded in a parser process of its own on the server.
  const uploader = async () => {
    for (let i = next++; i < distinct; i = next++) {
      // A photo-like picture of its own per image: blurred random noise, so that no two share bytes.
      const jpeg = await sharp({
        create: {
          width,
          height: Math.round((width * 3) / 4),
          channels: 3,
          background: '#808080',
          noise: { type: 'gaussian', mean: 128, sigma: 40 },
        },
      })
        .blur(2)
        .jpeg({ quality: 75 })
        .toBuffer();
      imageBytes += jpeg.length;
      const form = new FormData();
      form.append('file', new Blob([jpeg], { type: 'image/jpeg' }), `card-${i}.jpg`);
      const uploaded = (await api(
        server.url,
        '/media',
        { method: 'POST', headers: learner.auth, body: form },
        201,
      )) as {
        url: string;
      };
      images[i] = uploaded.url;
    }
  };
  await Promise.all(Array.from({ length: 4 }, uploader));
  // The server's queue holds at most limits.maxReviewQueue (200) cards: 200-card decks, each opened once.
  const perDeck = 200;
  const decks: Learner[] = [learner];
  while (decks.length * perDeck < count) {
    const deckName = `${learner.deckName} ${decks.length + 1}`;
    const deck = (await api(
      server.url,
      '/decks',
      { method: 'POST', headers: learner.auth, body: new URLSearchParams({ deck_name: deckName }) },
      201,
    )) as { _id: string };
    await api(
      server.url,
      `/decks/${deck._id}/settings`,
      {
        method: 'PUT',
        headers: { ...learner.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ daily_new_card_limit: perDeck }),
      },
      200,
    );
    decks.push({ ...learner, deckId: deck._id, deckName });
  }
  for (const [d, deck] of decks.entries()) {
    await saveCards(
      server.url,
      deck,
      Array.from({ length: Math.min(perDeck, count - d * perDeck) }, (_, k) => {
        const i = d * perDeck + k;
        return {
          question: `Card ${i + 1}: what does figure ${i + 1} show, and why does it matter for the **chapter** on $x^${i % 9}$?`,
          answer: `It shows the ${i + 1}th example of the rule, with its exception underlined.`,
          images: [images[i % distinct] ?? ''],
        };
      }),
    );
  }
  print(
    `storage: ${count} due cards, one ${width}px JPEG each, ${distinct} distinct (${mb(imageBytes)} of images, ${(imageBytes / distinct / 1024).toFixed(1)} KB each), seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );

  const profile = mkdtempSync(path.join(tmpdir(), 'flashcards-bench-profile-'));
  const context: BrowserContext = await launchProfile(profile, server.url);
  try {
    const page = await context.newPage();
    await signIn(page, learner.token, '/review');
    await controlledByServiceWorker(page);
    await page.getByRole('button', { name: `Review Deck: ${learner.deckName}`, exact: true }).waitFor();
    printStorage('before, the app installed (precache)', await estimate(page), await cacheSizes(page));
    const opened = performance.now();
    const imagesKept = () =>
      page.evaluate(async () => (await (await caches.open('card-images')).keys()).length) as Promise<number>;
    for (const [d, deck] of decks.entries()) {
      if (d > 0) await page.goto('/review');
      await page.getByRole('button', { name: `Review Deck: ${deck.deckName}`, exact: true }).click();
      await page.getByTestId('swipe-card').waitFor();
      const cardsSoFar = Math.min(count, (d + 1) * perDeck);
      for (;;) {
        if (performance.now() - opened > 900_000) throw new Error('the queues were not kept in 900 s');
        if ((await keptBytes(page)).cards >= cardsSoFar && (await imagesKept()) >= Math.min(distinct, cardsSoFar))
          break;
        await page.waitForTimeout(500);
      }
    }
    const keptIn = performance.now() - opened;
    const kept = await keptBytes(page);
    const sizes = await cacheSizes(page);
    const usage = await estimate(page);
    printStorage(`after, the queue and every image kept (${(keptIn / 1000).toFixed(1)} s)`, usage, sizes);
    print(`    IndexedDB kept responses: ${kept.entries} entries (${kept.cards} due cards), ${mb(kept.bytes)} of JSON`);
    print(`  goal 50 MB: ${usage.usage <= 50 * 1_048_576 ? 'within' : 'OVER'} (load average ${load()})`);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Records, from the navigation's start, when the deck list's first Review Deck button is in the page. */
const deckListProbe = `
(() => {
  const seen = () => document.querySelector('button[aria-label^="Review Deck"]') !== null
    || [...document.querySelectorAll('button')].some((b) => (b.textContent ?? '').includes('Review Deck'));
  const observer = new MutationObserver(() => {
    if (window.__deckListAt === undefined && seen()) {
      window.__deckListAt = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { subtree: true, childList: true });
  window.__lcp = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
})();
`;

async function benchRepeat(server: RunningServer): Promise<void> {
  const visits = Number(process.env.OFFLINE_BENCH_VISITS ?? 5);
  const learner = await newLearner(server.url, 20);
  await saveCards(
    server.url,
    learner,
    Array.from({ length: 20 }, (_, i) => ({ question: `Repeat question ${i}?`, answer: `Answer ${i}` })),
  );
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 412, height: 823 } });
    await context.addInitScript(deckListProbe);
    const first = await context.newPage();
    await signIn(first, learner.token, '/review');
    await controlledByServiceWorker(first);
    await first.getByRole('button', { name: `Review Deck: ${learner.deckName}`, exact: true }).waitFor();
    await first.close();
    print(`repeat visit to /review, service worker in control, 4x CPU (load average ${load()})`);
    for (const offline of [false, true]) {
      await context.setOffline(offline);
      const fcp: number[] = [];
      const lcp: number[] = [];
      const deckList: number[] = [];
      let fromWorker = 0;
      for (let visit = 0; visit < visits; visit++) {
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
        const response = await page.goto('/review');
        if (response?.fromServiceWorker()) fromWorker++;
        await page
          .getByRole('button', { name: `Review Deck: ${learner.deckName}`, exact: true })
          .waitFor({ timeout: 30_000 });
        // LCP is final at the first input; a moment so that late paints are counted.
        await page.waitForTimeout(500);
        const figures = (await page.evaluate(() => ({
          fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
          lcp: (window as unknown as { __lcp: number }).__lcp,
          deckList: (window as unknown as { __deckListAt?: number }).__deckListAt ?? Number.NaN,
        }))) as { fcp: number; lcp: number; deckList: number };
        fcp.push(figures.fcp);
        lcp.push(figures.lcp);
        deckList.push(figures.deckList);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
        await page.close();
      }
      const where = offline ? 'offline' : 'online';
      print(summary(`${where}: first contentful paint`, fcp, 1_000));
      print(summary(`${where}: largest contentful paint`, lcp, 1_000));
      print(summary(`${where}: deck list shown`, deckList, 1_000));
      print(`    ${fromWorker} of ${visits} pages answered by the service worker`);
    }
    await context.close();
  } finally {
    await browser.close();
  }
}

const server = await startServer(
  // The storage part uploads 2,000 images in a few minutes, and its browser loads them all at once.
  { MEDIA_UPLOAD_RATE_LIMIT_PER_HOUR: '100000', MEDIA_RATE_LIMIT_PER_MINUTE: '1000000' },
  // BENCH_PORT pins the port (a band of ports per person on a shared machine); otherwise any free one.
  { port: process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : undefined },
);
try {
  print(`offline device bench, ${new Date().toISOString()}, load average ${load()} (2 cores shared)`);
  if (!only || only === 'sync') await benchSync(server);
  if (!only || only === 'storage') await benchStorage(server);
  if (!only || only === 'repeat') await benchRepeat(server);
} finally {
  await server.stop();
}
