import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { createIdGenerator } from '../apps/server/src/adapters/ids';
import { type DatabaseHandle, migrateToLatest } from '../apps/server/src/db/database';
import { type NewCardRow, newCardRow } from '../apps/server/src/modules/study-core/card-state';
import { insertCards } from '../apps/server/src/modules/study-core/deck-counters';
import { prng } from '../apps/server/test/support/simulated-learner';
import { launchBrowser } from '../e2e/support/browser';
import { startServer } from '../e2e/support/server';
import { onEachDatabase } from './support/each-database';
import { insertBenchDeck, insertBenchUser, percentile, SEEDED_AT, startBenchApp } from './support/study-account';

const out = (line: string) => process.stdout.write(`${line}\n`);
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

// ---- 1. The Cards tab of a 30,000-card deck in Chromium ----

async function browserPart(): Promise<void> {
  const DECK_CARDS = 30_000;
  const OPENS = 5;
  const server = await startServer();
  try {
    const api = async (method: string, url: string, init: { token?: string; json?: unknown; form?: string } = {}) => {
      const headers: Record<string, string> = {};
      if (init.token) headers.authorization = `Bearer ${init.token}`;
      if (init.json !== undefined) headers['content-type'] = 'application/json';
      if (init.form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
      const response = await fetch(`${server.url}${url}`, {
        method,
        headers,
        body: init.json !== undefined ? JSON.stringify(init.json) : init.form,
      });
      if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
      return response;
    };
    const email = `bench-${Date.now()}@example.com`;
    const password = 'correct horse battery';
    await api('POST', '/signup', { json: { email, password, name: 'Bench' } });
    const login = await api('POST', '/login', { form: new URLSearchParams({ username: email, password }).toString() });
    const token = ((await login.json()) as { access_token: string }).access_token;
    const deck = (await (await api('POST', '/decks', { token, form: 'deck_name=Big%20deck' })).json()) as {
      _id: string;
    };
    const seedStart = performance.now();
    for (let start = 0; start < DECK_CARDS; start += 1000) {
      const cards = Array.from({ length: 1000 }, (_, index) => ({
        question: `Question ${start + index + 1}: what does **term ${start + index + 1}** mean, and $x^2$?`,
        answer: `Answer ${start + index + 1}, explained in a sentence or two so that the row has a typical size.`,
      }));
      await api('POST', '/save-cards', { token, json: { deck_id: deck._id, cards } });
    }
    out(
      `Chromium: seeded ${DECK_CARDS} cards through the API in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
    );

    // The answers behind the tab: the unpaged list (what the Cards tab loaded before) and one page now.
    const fetchTimed = async (url: string) => {
      const samples: number[] = [];
      let bytes = 0;
      for (let i = 0; i < 5; i++) {
        const start = performance.now();
        const body = await (await api('GET', url, { token })).arrayBuffer();
        samples.push(performance.now() - start);
        bytes = body.byteLength;
      }
      return { ms: median(samples), bytes };
    };
    const whole = await fetchTimed(`/decks/${deck._id}/cards`);
    const firstPage = await fetchTimed(`/decks/${deck._id}/cards?limit=200`);
    out(
      `  GET /decks/{id}/cards (unpaged, the tab's load before): ${whole.ms.toFixed(0)} ms, ${(whole.bytes / 1048576).toFixed(2)} MiB`,
    );
    out(
      `  GET /decks/{id}/cards?limit=200 (the tab's first page): ${firstPage.ms.toFixed(1)} ms, ${(firstPage.bytes / 1024).toFixed(1)} KiB`,
    );

    const browser = await launchBrowser();
    try {
      const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.goto('/login');
      await page.evaluate((value) => localStorage.setItem('access_token', value), token);
      const opens: number[] = [];
      const nodes: number[] = [];
      for (let run = 0; run < OPENS; run++) {
        await page.goto('/review');
        await page.getByRole('button', { name: 'Settings: Big deck' }).click();
        const dialog = page.getByRole('dialog', { name: 'Deck settings: Big deck' });
        await dialog.getByRole('tab', { name: 'Cards' }).waitFor();
        const start = performance.now();
        await dialog.getByRole('tab', { name: 'Cards' }).click();
        await dialog.getByText('Card 1', { exact: true }).waitFor();
        opens.push(performance.now() - start);
        nodes.push(await page.evaluate(() => document.getElementsByTagName('*').length));
      }
      out(
        `  Cards tab, click to first rows on screen: median ${median(opens).toFixed(0)} ms (${opens.map((ms) => ms.toFixed(0)).join(', ')})`,
      );
      out(`  DOM elements in the page with the first rows: ${median(nodes)}`);

      const scroller = page.getByTestId('deck-cards-scroller');
      const target = page.getByText('Card 10000', { exact: true });
      const scrollStart = performance.now();
      let most = 0;
      for (let step = 0; step < 3000 && !(await target.isVisible()); step++) {
        await scroller.evaluate((element) => {
          element.scrollTop = element.scrollHeight;
        });
        await page.waitForTimeout(10);
        if (step % 10 === 0)
          most = Math.max(most, await page.evaluate(() => document.getElementsByTagName('*').length));
      }
      await target.waitFor();
      most = Math.max(most, await page.evaluate(() => document.getElementsByTagName('*').length));
      out(
        `  Scrolled to card 10,000 (50 pages) in ${((performance.now() - scrollStart) / 1000).toFixed(1)} s; most DOM elements on the way: ${most}`,
      );
      await context.close();
    } finally {
      await browser.close();
    }
  } finally {
    await server.stop();
  }
}

// ---- 2. Search on a 100,000-card account ----

const DECKS = 10;
const CARDS_PER_DECK = 10_000;
const VOCABULARY = 20_000;
const QUERIES = 100;
const WARMUP = 20;

/** Pronounceable words from syllables; rank r is drawn with weight 1/(r+10), roughly as words are in text. */
function makeVocabulary(random: () => number): string[] {
  const onsets = [
    'b',
    'c',
    'd',
    'f',
    'g',
    'h',
    'k',
    'l',
    'm',
    'n',
    'p',
    'r',
    's',
    't',
    'v',
    'z',
    'br',
    'st',
    'ch',
    'tr',
  ];
  const vowels = ['a', 'e', 'i', 'o', 'u', 'io', 'ea'];
  const codas = ['', '', 'n', 'r', 's', 'l', 'x', 'th'];
  const words = new Set<string>();
  while (words.size < VOCABULARY) {
    const syllables = 2 + Math.floor(random() * 3);
    let word = '';
    for (let s = 0; s < syllables; s++) {
      word += onsets[Math.floor(random() * onsets.length)];
      word += vowels[Math.floor(random() * vowels.length)];
      if (s === syllables - 1) word += codas[Math.floor(random() * codas.length)];
    }
    words.add(word);
  }
  return [...words];
}

function zipfPicker(size: number, random: () => number): () => number {
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = 0; rank < size; rank++) {
    total += 1 / (rank + 10);
    cumulative.push(total);
  }
  return () => {
    const target = random() * total;
    let low = 0;
    let high = size - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((cumulative[mid] ?? 0) < target) low = mid + 1;
      else high = mid;
    }
    return low;
  };
}

async function seedSearch(handle: DatabaseHandle, userId: string, vocabulary: string[]): Promise<void> {
  const db = handle.db;
  const random = prng(7);
  const pick = zipfPicker(vocabulary.length, random);
  const sentence = (words: number) => Array.from({ length: words }, () => vocabulary[pick()]).join(' ');
  const newId = createIdGenerator({ now: () => SEEDED_AT });
  await insertBenchUser(db, userId, `search-bench-${userId}@example.com`);
  for (let d = 0; d < DECKS; d++) {
    const deckId = newId();
    await insertBenchDeck(db, userId, deckId, d);
    const rows: NewCardRow[] = [];
    for (let c = 0; c < CARDS_PER_DECK; c++) {
      rows.push(
        newCardRow(
          { id: newId(), userId, deckId },
          {
            question: `What is ${sentence(6 + Math.floor(random() * 8))}?`,
            answer: `${sentence(10 + Math.floor(random() * 20))}.`,
          },
          SEEDED_AT + d * CARDS_PER_DECK + c,
        ),
      );
    }
    await db.transaction().execute((trx) => insertCards(trx, rows));
  }
}

async function searchPart(label: string, handle: DatabaseHandle, dataDir: string): Promise<void> {
  await migrateToLatest(handle.db, handle.dialect);
  const vocabulary = makeVocabulary(prng(3));
  const userId = 'c'.repeat(24);
  const seedStart = performance.now();
  await seedSearch(handle, userId, vocabulary);
  await sql.raw(handle.dialect === 'postgres' ? 'vacuum analyze' : 'analyze').execute(handle.db);
  out(`${label}: seeded ${DECKS * CARDS_PER_DECK} cards in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

  const { app, token } = await startBenchApp(handle, dataDir, userId);
  const random = prng(11);
  const pick = zipfPicker(vocabulary.length, random);
  const word = () => vocabulary[pick()] ?? 'a';
  const kinds: [string, () => string][] = [
    ['one whole word', word],
    ['a 3-letter prefix', () => word().slice(0, 3)],
    ['two words', () => `${word()} ${word()}`],
  ];
  const search = async (q: string) => {
    const start = performance.now();
    const response = await app.inject({
      method: 'GET',
      url: `/cards/search?q=${encodeURIComponent(q)}`,
      headers: { authorization: `Bearer ${token}` },
    });
    const ms = performance.now() - start;
    if (response.statusCode !== 200) throw new Error(`search ${q}: ${response.statusCode} ${response.body}`);
    return { ms, hits: response.json<{ cards: unknown[] }>().cards.length };
  };
  for (let i = 0; i < WARMUP; i++) await search(word());
  out(
    `  ${'GET /cards/search, q ='.padEnd(24)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'results (median)'.padStart(18)}`,
  );
  const all: number[] = [];
  for (const [name, make] of kinds) {
    const samples: number[] = [];
    const hits: number[] = [];
    for (let i = 0; i < QUERIES; i++) {
      const result = await search(make());
      samples.push(result.ms);
      hits.push(result.hits);
    }
    all.push(...samples);
    samples.sort((a, b) => a - b);
    out(
      `  ${name.padEnd(24)}${percentile(samples, 50).toFixed(2).padStart(9)}${percentile(samples, 99).toFixed(2).padStart(9)}${String(median(hits)).padStart(18)}`,
    );
  }
  all.sort((a, b) => a - b);
  out(
    `  ${'all searches'.padEnd(24)}${percentile(all, 50).toFixed(2).padStart(9)}${percentile(all, 99).toFixed(2).padStart(9)}`,
  );
  await app.close();
}

async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY;
  if (!only || only === 'browser') await browserPart();
  if (only === 'browser') return;
  out(
    `\nSearch: ${DECKS * CARDS_PER_DECK} cards in one account; ${QUERIES} different searches of each kind after ${WARMUP} warm-up searches.`,
  );
  await onEachDatabase(searchPart, out);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
