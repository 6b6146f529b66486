// `npm run bench -- sources`: what sources and duplicates add to a generation (issue 36). Quote verification: the
// index of a 120,000-character text and 40 quotes checked against it (exact with other spacing and case, a few
// letters changed, and invented ones, which are the slowest: every candidate window is searched). The duplicate
// check: 40 generated cards against a deck of 30,000 cards, on SQLite and PostgreSQL, through the full-text index.
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { migrateToLatest } from '../apps/server/src/db/database';
import { createDeckDuplicates } from '../apps/server/src/modules/generation/deck-duplicates';
import { createDuplicatesRepo } from '../apps/server/src/modules/generation/deck-duplicates.repo';
import { findQuote, quoteIndex } from '../apps/server/src/modules/generation/quote-check';
import { newCardRow } from '../apps/server/src/modules/study-core/card-state';
import { insertCards } from '../apps/server/src/modules/study-core/deck-counters';
import { onEachDatabase } from './support/each-database';
import { insertBenchDeck, insertBenchUser, percentile, SEEDED_AT } from './support/study-account';

const out = (line: string) => process.stdout.write(`${line}\n`);
const subjects = ['the enzyme', 'the valve', 'the treaty', 'the reactor', 'the tribunal', 'the membrane', 'the ledger'];
const verbs = ['regulates', 'binds', 'records', 'delays', 'filters', 'limits', 'carries'];
const objects = ['sodium ions', 'river trade', 'tax receipts', 'heat flow', 'appeal rights', 'glucose uptake'];

/** A sentence made of numbered, varied words: `i` gives each its own wording. */
function sentence(i: number): string {
  const pick = <T>(list: T[], n: number) => list[n % list.length] as T;
  return `In case ${i}, ${pick(subjects, i)} ${pick(verbs, i * 7)} ${pick(objects, i * 3)} near site ${i * 13} during phase ${i % 97}.`;
}

function quoteVerification() {
  const sentences: string[] = [];
  for (let i = 0, length = 0; length < 120_000; i++) {
    sentences.push(sentence(i));
    length += (sentences.at(-1)?.length ?? 0) + 1;
  }
  const text = sentences.join(' ').slice(0, 120_000);
  const count = sentences.length;
  const quotes = [
    ...Array.from({ length: 30 }, (_, k) =>
      sentence(Math.floor((k * count) / 31))
        .toUpperCase()
        .replace(/ /g, '  '),
    ),
    ...Array.from({ length: 5 }, (_, k) =>
      sentence(Math.floor((k * count) / 6) + 3)
        .replace(/e/, 'a')
        .replace(/s/, 'z'),
    ),
    ...Array.from(
      { length: 5 },
      (_, k) => `The committee ${k} approved a budget for coastal defence and school meals.`,
    ),
  ];
  const runs: number[] = [];
  const indexMs: number[] = [];
  let verified = 0;
  for (let run = 0; run < 12; run++) {
    const start = performance.now();
    const index = quoteIndex([{ text }]);
    const indexed = performance.now();
    verified = quotes.filter((quote) => findQuote(index, quote)).length;
    runs.push(performance.now() - start);
    indexMs.push(indexed - start);
  }
  const indexSorted = indexMs.slice(2).sort((a, b) => a - b);
  const sorted = runs.slice(2).sort((a, b) => a - b);
  out(`Quote verification, ${text.length} characters, 40 quotes (${verified} verified; 35 expected):`);
  out(
    `  index + 40 checks: median ${percentile(sorted, 50).toFixed(1)} ms (index alone ` +
      `${percentile(indexSorted, 50).toFixed(1)} ms), max ${sorted.at(-1)?.toFixed(1)} ms`,
  );
}

async function duplicateCheck() {
  await onEachDatabase(async (label, handle) => {
    const { db } = handle;
    await migrateToLatest(db, handle.dialect);
    const userId = 'b'.repeat(24);
    const deckId = 'd'.repeat(24);
    await insertBenchUser(db, userId, 'sources@bench.test');
    await insertBenchDeck(db, userId, deckId, 0);
    const rows = Array.from({ length: 30_000 }, (_, i) =>
      newCardRow(
        { id: i.toString(16).padStart(24, '0'), userId, deckId },
        { question: `What does ${subjects[i % 7]} in case ${i} do?`, answer: sentence(i) },
        SEEDED_AT,
      ),
    );
    const importStart = performance.now();
    for (let from = 0; from < rows.length; from += 500) await insertCards(db, rows.slice(from, from + 500));
    out(`${label}: import of 30,000 cards (500 a statement): ${(performance.now() - importStart).toFixed(0)} ms`);
    const duplicates = createDeckDuplicates({ repo: createDuplicatesRepo(db), decks: { exists: async () => true } });
    // Half restate a card of the deck in other words, half are new facts.
    const generated = Array.from({ length: 40 }, (_, k) =>
      k % 2 === 0
        ? { question: `In case ${k * 700}, what does ${subjects[(k * 700) % 7]} do?`, answer: sentence(k * 700) }
        : { question: `Who signed the charter of town ${k}?`, answer: `The guild masters of harbour ${k}` },
    );
    const generation = async () => {
      const start = performance.now();
      const duplicateOf = duplicates.forDeck(userId, deckId);
      for (const card of generated) await duplicateOf(card);
      return performance.now() - start;
    };
    if (handle.dialect === 'postgres') {
      // Autovacuum is off on the test server: ANALYZE gives the planner the statistics autoanalyze would (without
      // them it scans the deck's rows instead of the search index). Measured right after the import, before any
      // VACUUM: the search index keeps no pending list since migration 0022, so this equals the figure after it.
      await sql`analyze cards`.execute(db);
      out(`${label}: 40 cards against 30,000 just imported: ${(await generation()).toFixed(0)} ms`);
      await sql`vacuum analyze cards`.execute(db);
    }
    const runs: number[] = [];
    let flagged = 0;
    let right = 0;
    for (let run = 0; run < 7; run++) {
      // One generation: its check reads the deck's sample at the first card, as POST /create does.
      const start = performance.now();
      const duplicateOf = duplicates.forDeck(userId, deckId);
      const found = [];
      for (const card of generated) found.push(await duplicateOf(card));
      runs.push(performance.now() - start);
      flagged = found.filter(Boolean).length;
      // The card restated is card k·700 of the deck.
      right = found.filter((duplicate, k) => duplicate?.card_id === (k * 700).toString(16).padStart(24, '0')).length;
    }
    const sorted = runs.slice(2).sort((a, b) => a - b);
    out(
      `${label}: 40 cards against 30,000: median ${percentile(sorted, 50).toFixed(0)} ms, max ` +
        `${sorted.at(-1)?.toFixed(0)} ms (${flagged} flagged, ${right} naming the card restated; 20 expected)`,
    );
  }, out);
}

out('Measured once on this machine (shared with other work: figures vary from run to run).');
quoteVerification();
await duplicateCheck();
