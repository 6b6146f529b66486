/**
 * POST /reviews/sync (issue 37): a device that was offline sends 500 queued answers at once: 250 cards answered
 * twice (a fail, then a pass 10 minutes later), dated over the last 6 hours. Timed through the real app (inject,
 * no network) on SQLite and PostgreSQL (bench/support/each-database.ts): the first sync (every answer applied) and
 * the same batch again (every answer a duplicate, as after a lost response). SYNC_BENCH_RUNS batches (default 5),
 * each on cards never answered. Goal (issue 37): 500 queued answers synced in <= 5 s.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { SyncResponse } from '@flashcards/shared/api-types';
import type { FastifyInstance } from 'fastify';
import { createIdGenerator } from '../apps/server/src/adapters/ids';
import { type DatabaseHandle, migrateToLatest } from '../apps/server/src/db/database';
import { newCardRow } from '../apps/server/src/modules/study-core/card-state';
import { insertCards } from '../apps/server/src/modules/study-core/deck-counters';
import { onEachDatabase } from './support/each-database';
import {
  insertBenchDeck,
  insertBenchUser,
  BENCH_NOW as NOW,
  percentile,
  SEEDED_AT,
  startBenchApp,
} from './support/study-account';

const RUNS = Number(process.env.SYNC_BENCH_RUNS ?? 5);
const CARDS = 250;
const MINUTE = 60_000;
const GOAL_MS = 5_000;

const out = (line: string) => process.stdout.write(`${line}\n`);

async function seedCards(handle: DatabaseHandle, userId: string, deckId: string, run: number): Promise<string[]> {
  const newId = createIdGenerator({ now: () => SEEDED_AT + run });
  const rows = Array.from({ length: CARDS }, (_, index) =>
    newCardRow({ id: newId(), userId, deckId }, { question: `Q${run}-${index}`, answer: `A${index}` }, SEEDED_AT),
  );
  await handle.db.transaction().execute((trx) => insertCards(trx, rows));
  return rows.map((row) => row.id);
}

/** Each card: a fail, then a pass 10 minutes later, spread over the six hours before NOW. */
function queuedAnswers(cardIds: string[]) {
  return cardIds.flatMap((cardId, index) => {
    const at = NOW - 6 * 60 * MINUTE + index * MINUTE;
    return [
      { id: randomUUID(), card_id: cardId, result: 'fail', reviewed_at: new Date(at).toISOString() },
      { id: randomUUID(), card_id: cardId, result: 'pass', reviewed_at: new Date(at + 10 * MINUTE).toISOString() },
    ];
  });
}

async function timedSync(app: FastifyInstance, token: string, reviews: unknown[], expected: string): Promise<number> {
  const started = performance.now();
  const response = await app.inject({
    method: 'POST',
    url: '/reviews/sync',
    headers: { authorization: `Bearer ${token}` },
    payload: { reviews },
  });
  const elapsed = performance.now() - started;
  if (response.statusCode !== 200) throw new Error(`sync: ${response.statusCode} ${response.body}`);
  const { results } = response.json<SyncResponse>();
  const wrong = results.filter((result) => result.status !== expected);
  if (results.length !== reviews.length || wrong.length > 0) {
    throw new Error(`sync: ${wrong.length} of ${results.length} answers not ${expected}: ${JSON.stringify(wrong[0])}`);
  }
  return elapsed;
}

function line(label: string, samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const median = percentile(sorted, 50);
  const max = sorted.at(-1) ?? Number.NaN;
  return `  ${label.padEnd(34)} median ${median.toFixed(0).padStart(5)} ms  max ${max.toFixed(0).padStart(5)} ms  (n=${samples.length}; goal ${GOAL_MS} ms: ${max <= GOAL_MS ? 'within' : 'OVER'})`;
}

out(`POST /reviews/sync: 500 queued answers (${CARDS} cards x 2), ${RUNS} batches`);
await onEachDatabase(async (label, handle, dataDir) => {
  await migrateToLatest(handle.db, handle.dialect);
  const userId = 'c'.repeat(24);
  const deckId = 'd'.repeat(24);
  await insertBenchUser(handle.db, userId, 'sync-bench@example.com');
  await insertBenchDeck(handle.db, userId, deckId, 0);
  const { app, token } = await startBenchApp(handle, dataDir, userId);
  try {
    const first: number[] = [];
    const again: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const reviews = queuedAnswers(await seedCards(handle, userId, deckId, run));
      first.push(await timedSync(app, token, reviews, 'applied'));
      again.push(await timedSync(app, token, reviews, 'duplicate'));
    }
    out(label);
    out(line('first sync (500 applied)', first));
    out(line('same batch again (500 duplicate)', again));
  } finally {
    await app.close();
  }
}, out);
