import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { createIdGenerator } from '../apps/server/src/adapters/ids';
import { type DatabaseHandle, migrateToLatest } from '../apps/server/src/db/database';
import type { FsrsState, ReviewLogsTable } from '../apps/server/src/db/schema';
import type { NewCardRow } from '../apps/server/src/modules/study-core/card-state';
import { insertCards } from '../apps/server/src/modules/study-core/deck-counters';
import { prng } from '../apps/server/test/support/simulated-learner';
import { onEachDatabase } from './support/each-database';
import {
  DAY,
  insertBenchDeck,
  insertBenchUser,
  BENCH_NOW as NOW,
  percentile,
  SEEDED_AT,
  startBenchApp,
} from './support/study-account';

const DECKS = 10;
const CARDS_PER_DECK = 10_000;
const HISTORY_LOGS = 200_000;
const TODAY_LOGS = 300;
const WARMUP = 20;
const RUNS = 300;
const BATCH = 500;
const MINUTE = 60_000;

const out = (line: string) => process.stdout.write(`${line}\n`);

async function seed(handle: DatabaseHandle, userId: string): Promise<string[]> {
  const db = handle.db;
  const newId = createIdGenerator({ now: () => SEEDED_AT });
  const random = prng(42);
  await insertBenchUser(db, userId, 'bench@example.com');
  const deckIds: string[] = [];
  const cardIds: { id: string; deck: string }[] = [];
  for (let d = 0; d < DECKS; d++) {
    const deckId = newId();
    deckIds.push(deckId);
    await insertBenchDeck(db, userId, deckId, d);
    const rows: NewCardRow[] = [];
    for (let c = 0; c < CARDS_PER_DECK; c++) {
      const roll = random();
      // 50% new, 49% long-term review (due from 30 days ago to a year ahead), 0.5% learning, 0.5% relearning.
      const state: FsrsState = roll < 0.5 ? 0 : roll < 0.99 ? 2 : roll < 0.995 ? 1 : 3;
      const created = SEEDED_AT + c * MINUTE;
      const due =
        state === 0
          ? created
          : state === 2
            ? NOW + Math.floor((random() * 395 - 30) * DAY)
            : NOW + Math.floor((random() * 120 - 60) * MINUTE);
      const id = newId();
      cardIds.push({ id, deck: deckId });
      rows.push({
        id,
        user_id: userId,
        deck_id: deckId,
        note_id: id,
        buried_until: null,
        question: `What is fact number ${c} of deck ${d + 1}? Some **markdown** and $x^2$ to make it realistic.`,
        answer: `It is the answer to fact ${c}, explained in a sentence or two so the row has a typical size.`,
        state,
        due,
        stability: state === 0 ? 0 : 1 + random() * 100,
        difficulty: state === 0 ? 0 : 1 + random() * 9,
        scheduled_days: state === 2 ? Math.floor(random() * 100) : 0,
        learning_steps: 0,
        reps: state === 0 ? 0 : 1 + Math.floor(random() * 10),
        lapses: state === 3 ? 1 : 0,
        last_review: state === 0 ? null : NOW - Math.floor(random() * 30 * DAY),
        first_reviewed_at: state === 0 ? null : NOW - 60 * DAY,
        created_at: created,
        updated_at: created,
      });
    }
    // Through the app's own insert, which also keeps the deck's card counters.
    await db.transaction().execute((trx) => insertCards(trx, rows));
  }
  const logs: ReviewLogsTable[] = [];
  const byDeck = new Map<string, string[]>();
  for (const card of cardIds) {
    const list = byDeck.get(card.deck) ?? [];
    list.push(card.id);
    byDeck.set(card.deck, list);
  }
  const pushLog = (at: number, deck: string, today: boolean) => {
    const cards = byDeck.get(deck) ?? [];
    logs.push({
      id: newId(),
      user_id: userId,
      deck_id: deck,
      card_id: cards[Math.floor(random() * cards.length)] ?? '',
      reviewed_at: at,
      rating: random() < 0.2 ? 1 : 3,
      undone_at: null,
      card_before: null,
      typed: null,
      verdict: null,
      state_before: today && random() < 0.1 ? 0 : 2,
      state_after: 2,
      due_before: at,
      due_after: at + 5 * DAY,
      stability: 5,
      difficulty: 5,
      scheduled_days: 5,
      elapsed_days: 5,
    });
  };
  // A year of study sessions: each day one to three sessions of 20 to 60 minutes on one or two decks.
  const perDay = HISTORY_LOGS / 365;
  for (let day = 365; day >= 1; day--) {
    const sessions = 1 + Math.floor(random() * 3);
    for (let session = 0; session < sessions; session++) {
      const start = NOW - day * DAY + Math.floor(random() * 20 * 60) * MINUTE;
      const minutes = 20 + Math.floor(random() * 40);
      const decks = [deckIds[Math.floor(random() * DECKS)] ?? '', deckIds[Math.floor(random() * DECKS)] ?? ''];
      const count = Math.round(perDay / sessions);
      for (let r = 0; r < count && logs.length < HISTORY_LOGS; r++) {
        pushLog(start + Math.floor((r / count) * minutes * MINUTE), decks[r % 2] ?? '', false);
      }
    }
  }
  while (logs.length < HISTORY_LOGS) pushLog(NOW - DAY - Math.floor(random() * 60) * MINUTE, deckIds[0] ?? '', false);
  for (let l = 0; l < TODAY_LOGS; l++) {
    pushLog(NOW - Math.floor(random() * 14 * 60) * MINUTE, deckIds[l % DECKS] ?? '', true);
  }
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < logs.length; start += BATCH) {
      await trx
        .insertInto('review_logs')
        .values(logs.slice(start, start + BATCH))
        .execute();
    }
    // The statistics rollup, filled from the log as migration 0007 fills it (the app's review path keeps it after).
    await sql`
      insert into review_stats (user_id, deck_id, bucket, reviews, passed, new_cards, mature_reviews, mature_passed)
      select user_id, deck_id, reviewed_at / 900000, count(*),
        sum(case when rating = 3 then 1 else 0 end), sum(case when state_before = 0 then 1 else 0 end),
        sum(case when state_before = 2 then 1 else 0 end),
        sum(case when state_before = 2 and rating = 3 then 1 else 0 end)
      from review_logs group by user_id, deck_id, reviewed_at / 900000
    `.execute(trx);
  });
  const buckets = await db
    .selectFrom('review_stats')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  out(`  review_stats rollup: ${Number(buckets.n)} rows for ${logs.length} reviews`);
  return deckIds;
}

async function time(app: FastifyInstance, url: string, token: string) {
  const call = async () => {
    const response = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}: ${response.body}`);
    return response;
  };
  for (let i = 0; i < WARMUP; i++) await call();
  const samples: number[] = [];
  let size = 0;
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const response = await call();
    samples.push(performance.now() - start);
    size = response.body.length;
  }
  samples.sort((a, b) => a - b);
  return { median: percentile(samples, 50), p99: percentile(samples, 99), size };
}

/** The learner studies in New York: study days are 04:00 to 04:00 there, across the year's two clock changes. */
async function setZone(handle: DatabaseHandle, userId: string): Promise<void> {
  await handle.db.updateTable('users').set({ time_zone: 'America/New_York' }).where('id', '=', userId).execute();
}

async function run(label: string, handle: DatabaseHandle, dataDir: string): Promise<void> {
  await migrateToLatest(handle.db, handle.dialect);
  const userId = 'b'.repeat(24);
  const seedStart = performance.now();
  const deckIds = await seed(handle, userId);
  // What autovacuum does on a live PostgreSQL after a bulk load (planner statistics, and the visibility map that
  // lets counts be answered from the index alone); on SQLite, the statistics `PRAGMA optimize` would gather.
  await sql.raw(handle.dialect === 'postgres' ? 'vacuum analyze' : 'analyze').execute(handle.db);
  out(
    `${label}: seeded ${DECKS * CARDS_PER_DECK} cards, ${HISTORY_LOGS + TODAY_LOGS} review-log rows in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
  );

  const { app, token } = await startBenchApp(handle, dataDir, userId);
  const deck = deckIds[3] ?? '';
  const calls = [
    ['GET /cards/due', '/cards/due'],
    ['GET /cards/due?deck_id', `/cards/due?deck_id=${deck}`],
    ['GET /decks/stats', '/decks/stats'],
    ['GET /decks/{id}/stats', `/decks/${deck}/stats`],
    ['GET /decks', '/decks'],
    ['GET /stats/history', '/stats/history'],
    ['GET /stats/history?deck_id', `/stats/history?deck_id=${deck}`],
    ['GET /stats/forecast', '/stats/forecast'],
    ['GET /stats/forecast?deck_id', `/stats/forecast?deck_id=${deck}`],
  ] as const;
  await setZone(handle, userId);
  out(`  ${'call'.padEnd(26)}${'median ms'.padStart(10)}${'p99 ms'.padStart(10)}${'response'.padStart(12)}`);
  const stats = await app.inject({ method: 'GET', url: '/decks/stats', headers: { authorization: `Bearer ${token}` } });
  out(`  GET /decks/stats answers ${stats.body}`);
  for (const [name, url] of calls) {
    const { median, p99, size } = await time(app, url, token);
    out(
      `  ${name.padEnd(26)}${median.toFixed(2).padStart(10)}${p99.toFixed(2).padStart(10)}${`${(size / 1024).toFixed(1)} KiB`.padStart(12)}`,
    );
  }
  await app.close();
}

async function main(): Promise<void> {
  out(`${DECKS * CARDS_PER_DECK} cards in one account; ${RUNS} timed calls each after ${WARMUP} warm-up calls.`);
  await onEachDatabase(run, out);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
