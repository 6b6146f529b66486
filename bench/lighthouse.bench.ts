/**
 * Lighthouse (npm `lighthouse`, mobile, its own simulated throttling), one run per page, against the real server
 * started as `npm start` does (the web app built first when stale) on loopback, in Debian's chromium launched by
 * chrome-launcher (nothing is downloaded). Public pages run as a first-time visitor (fresh profile, storage reset);
 * the signed-in pages as a learner signed up through the API, with one deck of 20 cards and 10 answers, whose
 * token is put where the web app reads it (local storage, `access_token`) and kept (storage reset off, the HTTP
 * cache cleared by hand so nothing is served warm).
 * Prints, per page: performance score, LCP, CLS, TBT, and the JavaScript the page loaded, each script's body
 * gzipped here at level 6 (1 KB = 1024 bytes), as bench/web-bundle-size.bench.ts does.
 * Goals (issue #31): performance ≥ 95 on the public pages and ≥ 90 signed in; LCP ≤ 1.5 s on the public pages;
 * CLS ≤ 0.02 everywhere. `LIGHTHOUSE_PAGES=/login,/stats` runs only those; `LIGHTHOUSE_REPORTS=dir` keeps each
 * page's full report (JSON) there.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { startServer } from '../e2e/support/server';
import { overHttp, signUpAndLogIn } from './support/accounts';

const chromePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const chromeFlags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

interface Target {
  path: string;
  signedIn: boolean;
  goals: { score: number; lcpMs: number | null };
}

const publicGoal = { score: 95, lcpMs: 1500 };
const memberGoal = { score: 90, lcpMs: null };
const allTargets: Target[] = [
  { path: '/login', signedIn: false, goals: publicGoal },
  { path: '/privacy', signedIn: false, goals: publicGoal },
  { path: '/best-for/medical-students', signedIn: false, goals: publicGoal },
  { path: '/review', signedIn: true, goals: memberGoal },
  { path: '/create', signedIn: true, goals: memberGoal },
  { path: '/stats', signedIn: true, goals: memberGoal },
];
const only = process.env.LIGHTHOUSE_PAGES?.split(',');
const targets = only ? allTargets.filter((target) => only.includes(target.path)) : allTargets;

const print = (line = '') => process.stdout.write(`${line}\n`);

interface Figures {
  score: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  jsGzip: number;
  scripts: number;
}

/** A learner with a deck of 20 cards, 10 of them answered: enough for /review and /stats to have something. */
async function seededLearner(baseUrl: string): Promise<string> {
  const token = await signUpAndLogIn(overHttp(baseUrl), `lighthouse-${Date.now()}@example.com`, 'lighthouse pass');
  const headers = { authorization: `Bearer ${token}` };
  const deck = await fetch(`${baseUrl}/decks`, {
    method: 'POST',
    headers,
    body: new URLSearchParams({ deck_name: 'Cell biology' }),
  });
  if (deck.status !== 201) throw new Error(`POST /decks answered ${deck.status}`);
  const deckId = ((await deck.json()) as { _id: string })._id;
  const cards = Array.from({ length: 20 }, (_, index) => ({
    question: `What does organelle number ${index + 1} do?`,
    answer: index % 4 === 0 ? `It follows $E = mc^2$ (${index + 1}).` : `It keeps cell ${index + 1} alive.`,
  }));
  const saved = await fetch(`${baseUrl}/save-cards`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ deck_id: deckId, cards }),
  });
  if (saved.status !== 201) throw new Error(`POST /save-cards answered ${saved.status}`);
  const ids = ((await saved.json()) as { cards: { _id: string }[] }).cards.map((card) => card._id);
  for (const [index, id] of ids.slice(0, 10).entries()) {
    const answer = await fetch(`${baseUrl}/cards/review`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ card_id: id, result: index % 3 === 0 ? 'fail' : 'pass' }),
    });
    if (answer.status !== 200) throw new Error(`POST /cards/review answered ${answer.status}`);
  }
  return token;
}

/** Stores the token in the launched browser's profile and empties its HTTP cache, through the DevTools protocol. */
async function signInProfile(port: number, baseUrl: string, token: string): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0];
    if (!context) throw new Error('no default browser context');
    const page = await context.newPage();
    await page.goto(`${baseUrl}/privacy`);
    await page.evaluate((value) => localStorage.setItem('access_token', value), token);
    const session = await context.newCDPSession(page);
    await session.send('Network.clearBrowserCache');
    await page.close();
  } finally {
    // Disconnects only: the browser stays up for Lighthouse.
    await browser.close();
  }
}

async function scriptGzipBytes(urls: string[]): Promise<number> {
  let total = 0;
  for (const url of urls) {
    const body = Buffer.from(await (await fetch(url)).arrayBuffer());
    total += gzipSync(body, { level: 6 }).length;
  }
  return total;
}

async function measure(baseUrl: string, target: Target, token: string | null): Promise<Figures> {
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags });
  try {
    if (token) await signInProfile(chrome.port, baseUrl, token);
    const result = await lighthouse(
      `${baseUrl}${target.path}`,
      { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] },
      {
        extends: 'lighthouse:default',
        // Signed in, the stored token must survive; the cache was cleared above instead.
        settings: { disableStorageReset: token !== null },
      },
    );
    if (!result) throw new Error(`Lighthouse gave no result for ${target.path}`);
    const { lhr } = result;
    const reports = process.env.LIGHTHOUSE_REPORTS;
    if (reports)
      writeFileSync(path.join(reports, `${target.path.slice(1).replaceAll('/', '-')}.json`), JSON.stringify(lhr));
    if (lhr.runtimeError) throw new Error(`${target.path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const finalPath = new URL(lhr.finalDisplayedUrl).pathname;
    if (finalPath !== target.path) throw new Error(`${target.path} ended on ${finalPath}`);
    const requests = (lhr.audits['network-requests']?.details as { items?: { url: string; resourceType?: string }[] })
      ?.items;
    const scripts = (requests ?? [])
      .filter((item) => item.resourceType === 'Script' && item.url.startsWith(baseUrl))
      .map((item) => item.url);
    const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    return {
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      lcpMs: numeric('largest-contentful-paint'),
      cls: numeric('cumulative-layout-shift'),
      tbtMs: numeric('total-blocking-time'),
      jsGzip: await scriptGzipBytes(scripts),
      scripts: scripts.length,
    };
  } finally {
    chrome.kill();
  }
}

const server = await startServer();
let missed = 0;
try {
  const token = targets.some((target) => target.signedIn) ? await seededLearner(server.url) : null;
  print(
    `${'page'.padEnd(28)} ${'score'.padStart(5)} ${'LCP'.padStart(8)} ${'CLS'.padStart(6)} ${'TBT'.padStart(8)} ${'JS gzip'.padStart(10)}`,
  );
  for (const target of targets) {
    const figures = await measure(server.url, target, target.signedIn ? token : null);
    const misses: string[] = [];
    if (figures.score < target.goals.score) misses.push(`score < ${target.goals.score}`);
    if (target.goals.lcpMs !== null && figures.lcpMs > target.goals.lcpMs)
      misses.push(`LCP > ${target.goals.lcpMs} ms`);
    if (figures.cls > 0.02) misses.push('CLS > 0.02');
    if (misses.length > 0) missed++;
    print(
      [
        target.path.padEnd(28),
        String(figures.score).padStart(5),
        `${(figures.lcpMs / 1000).toFixed(2)} s`.padStart(8),
        figures.cls.toFixed(3).padStart(6),
        `${figures.tbtMs.toFixed(0)} ms`.padStart(8),
        `${(figures.jsGzip / 1024).toFixed(1)} KB`.padStart(10),
        `(${figures.scripts} scripts)`,
        misses.length > 0 ? ` MISSED: ${misses.join(', ')}` : '',
      ].join(' '),
    );
  }
} finally {
  await server.stop();
}
print(missed > 0 ? `\n${missed} page(s) missed a goal` : '\nEvery page met its goals');
process.exit(missed > 0 ? 1 : 0);
