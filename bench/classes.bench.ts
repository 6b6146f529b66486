// `npm run bench -- classes`: classes (issue 38) on SQLite and PostgreSQL. A class of 500 students with a
// 2,000-card deck assigned: each student's first sync (the linked copy made, 2,000 notes and cards), a million
// reviews in the copies, migration 0021 building class progress's rollup from them, then GET
// /classes/{id}/progress's two queries (goal: ≤ 1 s), a teacher's edit of one note
// reaching a student (one sync), and GET /cards/due in process for a student with the linked copy against a learner
// with the same deck of their own (the lazy sync's check is the difference; goal: within 10 %).
// BENCH_STUDENTS (default 500) and BENCH_CARDS (default 2000) make it smaller.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { type Insertable, sql } from 'kysely';
import { forEachBatch } from '../apps/server/src/db/batches';
import { createMigrator } from '../apps/server/src/db/database';
import type { ReviewLogsTable } from '../apps/server/src/db/schema';
import { createTokenService } from '../apps/server/src/modules/auth/tokens';
import { createClassesRepo } from '../apps/server/src/modules/classes/classes.repo';
import { createClassesService } from '../apps/server/src/modules/classes/classes.service';
import { CardState, newCardRow } from '../apps/server/src/modules/study-core/card-state';
import { insertCards } from '../apps/server/src/modules/study-core/deck-counters';
import { createLinkedDecks } from '../apps/server/src/modules/study-core/linked-decks';
import { BUCKET_MS } from '../apps/server/src/modules/study-core/study-day';
import { onEachDatabase } from './support/each-database';
import {
  BENCH_NOW,
  BENCH_SECRET,
  buildBenchApp,
  DAY,
  insertBenchDeck,
  insertBenchUser,
  percentile,
} from './support/study-account';

const out = (line: string) => process.stdout.write(`${line}\n`);
const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 500);
const CARDS = Number(process.env.BENCH_CARDS ?? 2000);
const hex = (prefix: string, n: number) => `${prefix}${n.toString(16).padStart(24 - prefix.length, '0')}`;

function median(samples: number[]): number {
  return percentile(
    [...samples].sort((a, b) => a - b),
    50,
  );
}

out('Measured once on this machine (shared with other work, under heavy load: figures vary from run to run).');
const load = () =>
  `load average ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}`;
await onEachDatabase(async (label, handle, dataDir) => {
  const { db } = handle;
  // The schema before migration 0021: the reviews are seeded into the log, then the migration builds the rollup.
  const migrator = await createMigrator(db, handle.dialect);
  const migrated = async (step: Promise<{ error?: unknown }>) => {
    const { error } = await step;
    if (error) throw error;
  };
  await migrated(migrator.migrateTo('0020-classes'));
  const clock = { now: () => BENCH_NOW };
  let next = 0;
  const newId = () => {
    next += 1;
    return hex('f', next);
  };
  const teacherId = hex('a', 0);
  const deckId = hex('d', 0);
  const classId = hex('c', 0);
  await insertBenchUser(db, teacherId, 'teacher@bench.test');
  await insertBenchDeck(db, teacherId, deckId, 0);
  const teacherCards = Array.from({ length: CARDS }, (_, i) =>
    newCardRow({ id: hex('e', i), userId: teacherId, deckId }, { question: `Q${i}`, answer: `A${i}` }, BENCH_NOW),
  );
  for (let from = 0; from < teacherCards.length; from += 500) {
    await insertCards(db, teacherCards.slice(from, from + 500));
  }
  await db
    .insertInto('classes')
    .values({ id: classId, teacher_id: teacherId, name: 'Bench class', join_code: 'BENCHABC', created_at: BENCH_NOW })
    .execute();
  await db.insertInto('class_decks').values({ class_id: classId, deck_id: deckId, assigned_at: BENCH_NOW }).execute();

  const linked = createLinkedDecks(db, { newId, now: clock.now });
  const firstSync: number[] = [];
  const studentIds = Array.from({ length: STUDENTS }, (_, s) => hex('b', s));
  for (const [s, studentId] of studentIds.entries()) {
    await insertBenchUser(db, studentId, `student${s}@bench.test`);
    await db
      .insertInto('class_members')
      .values({ class_id: classId, user_id: studentId, joined_at: BENCH_NOW })
      .execute();
    const start = performance.now();
    await linked.syncUser(studentId);
    firstSync.push(performance.now() - start);
  }
  out(
    `${label}: ${STUDENTS} students' first syncs (${CARDS} notes and cards each): median ${median(firstSync).toFixed(0)} ms`,
  );

  // One review per copied card, a fifth of them "fail", spread over the last 60 days.
  const seedStart = performance.now();
  let reviewNo = 0;
  for (const studentId of studentIds) {
    const cards = await db.selectFrom('cards').select(['id', 'deck_id']).where('user_id', '=', studentId).execute();
    const logs: Insertable<ReviewLogsTable>[] = cards.map((card, i) => {
      reviewNo += 1;
      const at = BENCH_NOW - ((reviewNo * 7919) % (60 * DAY));
      return {
        id: hex('9', reviewNo),
        user_id: studentId,
        deck_id: card.deck_id,
        card_id: card.id,
        reviewed_at: at,
        rating: i % 5 === 0 ? 1 : 3,
        state_before: CardState.New,
        state_after: CardState.Learning,
        due_before: at,
        due_after: at + 600_000,
        stability: 1,
        difficulty: 5,
        scheduled_days: 0,
        elapsed_days: 0,
      };
    });
    await forEachBatch(logs, 500, async (batch) => {
      await db.insertInto('review_logs').values(batch).execute();
    });
  }
  // The rollup the review path keeps beside the log (stats.repo's countReview), made in one statement here.
  await sql`insert into review_stats (user_id, deck_id, bucket, reviews, passed, new_cards, mature_reviews, mature_passed)
    select user_id, deck_id, reviewed_at / ${sql.lit(BUCKET_MS)}, count(*), sum(case when rating = 3 then 1 else 0 end), count(*), 0, 0
    from review_logs group by user_id, deck_id, reviewed_at / ${sql.lit(BUCKET_MS)}`.execute(db);
  out(`${label}: ${reviewNo} reviews seeded in ${((performance.now() - seedStart) / 1000).toFixed(0)} s`);
  const migrateStart = performance.now();
  await migrated(migrator.migrateToLatest());
  out(
    `${label}: migration 0021 (class progress's rollup of ${reviewNo} reviews): ${(performance.now() - migrateStart).toFixed(0)} ms`,
  );
  if (handle.dialect === 'postgres') await sql`analyze`.execute(db);

  const repo = createClassesRepo(db);
  const classes = createClassesService({
    classes: repo,
    linked,
    userLimits: { assertRoom: async () => {}, cardRoom: async () => Number.POSITIVE_INFINITY },
    clock,
    newId,
    limits: { maxStudents: STUDENTS, maxPerUser: 50 },
  });
  const progressRuns: number[] = [];
  let rows = { students: 0, cards: 0 };
  for (let run = 0; run < 5; run++) {
    const start = performance.now();
    const progress = await classes.progress(teacherId, classId);
    progressRuns.push(performance.now() - start);
    rows = { students: progress.students.length, cards: progress.cards.length };
  }
  const partRuns = { students: [] as number[], cards: [] as number[], recount: [] as number[] };
  for (let run = 0; run < 3; run++) {
    // The cards' table as it was counted before migration 0021: the members' copies' review log grouped by the
    // teacher's card, for an A/B under the same load.
    const recountStart = performance.now();
    await sql`select c.source_card_id, count(*), sum(case when r.rating = 1 then 1 else 0 end)
      from review_logs r join cards c on c.id = r.card_id
      where r.deck_id in (select copy.id from decks copy
        join class_members m on m.user_id = copy.user_id and m.class_id = copy.class_id
        where copy.class_id = ${classId} and copy.source_deck_id is not null)
        and r.undone_at is null and c.source_card_id is not null
      group by c.source_card_id`.execute(db);
    partRuns.recount.push(performance.now() - recountStart);
    let start = performance.now();
    await repo.studentProgress(classId, BENCH_NOW - 7 * DAY, BENCH_NOW - 30 * DAY);
    partRuns.students.push(performance.now() - start);
    start = performance.now();
    await repo.cardProgress(classId);
    partRuns.cards.push(performance.now() - start);
  }
  out(
    `${label}: of which the students' query ${median(partRuns.students).toFixed(0)} ms, the cards' query ` +
      `${median(partRuns.cards).toFixed(0)} ms (each alone, medians); the review log grouped as before the rollup ` +
      `${median(partRuns.recount).toFixed(0)} ms`,
  );
  out(
    `${label}: progress of ${rows.students} students × ${rows.cards} cards (${reviewNo} reviews): median ` +
      `${median(progressRuns).toFixed(0)} ms, max ${Math.max(...progressRuns).toFixed(0)} ms (goal ≤ 1000 ms); ${load()}`,
  );

  // A teacher's edit of one note: one update of the teacher's deck, then one student's next request syncs it.
  const editStart = performance.now();
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('cards').set({ question: 'Q0 edited' }).where('id', '=', hex('e', 0)).execute();
    await trx
      .updateTable('decks')
      .set((eb) => ({ content_version: eb('content_version', '+', 1) }))
      .where('id', '=', deckId)
      .execute();
  });
  const editMs = performance.now() - editStart;
  const syncStart = performance.now();
  await linked.syncUser(studentIds[0] as string);
  out(
    `${label}: a teacher's edit: ${editMs.toFixed(1)} ms at edit time (no per-student write); the next student ` +
      `request's sync: ${(performance.now() - syncStart).toFixed(0)} ms`,
  );

  // GET /cards/due in process for one student: with the linked copy (the lazy sync's check runs), then the same
  // rows unlinked and out of the class (an ordinary deck: no check at all), alternating.
  const student = studentIds[1] as string;
  const setLinked = async (on: boolean) => {
    await db
      .updateTable('users')
      .set({ class_memberships: on ? 1 : 0 })
      .where('id', '=', student)
      .execute();
    if (on) {
      await db
        .insertInto('class_members')
        .values({ class_id: classId, user_id: student, joined_at: BENCH_NOW })
        .execute();
      await db
        .updateTable('decks')
        .set({ class_id: classId, source_deck_id: deckId })
        .where('user_id', '=', student)
        .execute();
    } else {
      await db.deleteFrom('class_members').where('user_id', '=', student).execute();
      await db
        .updateTable('decks')
        .set({ class_id: null, source_deck_id: null })
        .where('user_id', '=', student)
        .execute();
    }
  };
  const app = await buildBenchApp(db, { LOG_LEVEL: 'silent', DATA_DIR: dataDir }, clock);
  await app.ready();
  const tokens = createTokenService({ secret: BENCH_SECRET, ttlMs: DAY, clock });
  const rate = async (userId: string) => {
    const headers = { authorization: `Bearer ${await tokens.issue(userId, 0)}` };
    for (let i = 0; i < 50; i++) await app.inject({ method: 'GET', url: '/cards/due', headers });
    const start = performance.now();
    const n = 400;
    for (let i = 0; i < n; i++) await app.inject({ method: 'GET', url: '/cards/due', headers });
    return n / ((performance.now() - start) / 1000);
  };
  const rounds: { own: number; linked: number }[] = [];
  for (let round = 0; round < 3; round++) {
    await setLinked(false);
    const own = await rate(student);
    await setLinked(true);
    rounds.push({ own, linked: await rate(student) });
  }
  const own = median(rounds.map((r) => r.own));
  const copy = median(rounds.map((r) => r.linked));
  out(
    `${label}: GET /cards/due in process, sequential: the deck unlinked ${own.toFixed(0)} req/s, linked ` +
      `${copy.toFixed(0)} req/s (${((copy / own - 1) * 100).toFixed(1)} %); ${load()}`,
  );
  await app.close();
}, out);
