import { randomUUID } from 'node:crypto';
import type { Card, ClassProgress, DeckSummary } from '@flashcards/shared/api-types';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { assignDeck, createClass, joinClass } from '../../../test/support/classes';
import { type AuthHeaders, deleteAccount, signUpAndLogIn } from '../../../test/support/factories';
import { migratedBackTo } from '../../../test/support/migration';
import { createDeck, reviewCard, saveCards } from '../../../test/support/study';
import { useTestApp } from '../../../test/support/test-app';

// Class progress reads its cards' table from a rollup (migration 0021, study-core/class-card-stats.ts). Each step
// that changes what progress counts is checked against a recount of the review log, as progress counted before the
// rollup: the non-undone reviews of current students' linked copies, grouped by the teacher's card.
const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });

type Counts = Record<string, { reviews: number; failed: number }>;

/** The recount: the cards' table as one statement over the review log. */
async function recount(classId: string): Promise<Counts> {
  const rows = await sql<{ card_id: string; reviews: number | string; failed: number | string }>`
    select t.id as card_id, count(r.id) as reviews, coalesce(sum(case when r.rating = 1 then 1 else 0 end), 0) as failed
    from class_decks cd
    join cards t on t.deck_id = cd.deck_id
    left join cards c on c.source_card_id = t.id
      and c.deck_id in (select copy.id from decks copy
        join class_members m on m.user_id = copy.user_id and m.class_id = copy.class_id
        where copy.class_id = ${classId} and copy.source_deck_id is not null)
    left join review_logs r on r.card_id = c.id and r.deck_id = c.deck_id and r.undone_at is null
    where cd.class_id = ${classId}
    group by t.id`.execute(ctx.database.db);
  return Object.fromEntries(
    rows.rows.map((row) => [row.card_id, { reviews: Number(row.reviews), failed: Number(row.failed) }]),
  );
}

/** The cards' table of GET /classes/{id}/progress, by card. */
async function progressCards(headers: AuthHeaders, classId: string): Promise<Counts> {
  const response = await ctx.app.inject({ method: 'GET', url: `/classes/${classId}/progress`, headers });
  expect(response.statusCode, response.body).toBe(200);
  return Object.fromEntries(
    response.json<ClassProgress>().cards.map((card) => [card.card_id, { reviews: card.reviews, failed: card.failed }]),
  );
}

async function copyCards(headers: AuthHeaders): Promise<Card[]> {
  const decks = await ctx.app.inject({ method: 'GET', url: '/decks', headers });
  const copy = decks.json<DeckSummary[]>().find((deck) => deck.linked);
  if (!copy) throw new Error('no linked copy');
  const cards = await ctx.app.inject({ method: 'GET', url: `/decks/${copy._id}/cards`, headers });
  return cards.json<Card[]>().sort((a, b) => a.question.localeCompare(b.question));
}

async function classOf(students: number) {
  const teacher = await signUpAndLogIn(ctx.app);
  const klass = await createClass(ctx.app, teacher.headers);
  const deck = await createDeck(ctx.app, teacher.headers, 'Cells');
  const [first, second] = await saveCards(ctx.app, teacher.headers, deck._id, [
    { question: 'A: Powerhouse of the cell?', answer: 'Mitochondria' },
    { question: 'B: Plant cell wall?', answer: 'Cellulose' },
  ]);
  await assignDeck(ctx.app, teacher.headers, klass._id, deck._id);
  const members = [];
  for (let i = 0; i < students; i += 1) {
    const student = await signUpAndLogIn(ctx.app);
    await joinClass(ctx.app, student.headers, klass.join_code);
    members.push({ ...student, cards: await copyCards(student.headers) });
  }
  return { teacher, klass, deck, cardIds: [first?._id ?? '', second?._id ?? ''], students: members };
}

describe('class progress rollup (migration 0021)', () => {
  it('agrees with a recount after reviews, undo, offline sync, a removal, a leaving and an account deletion', async () => {
    const { teacher, klass, cardIds, students } = await classOf(4);
    const [a, b] = cardIds as [string, string];
    const [s1, s2, s3, s4] = students as [
      (typeof students)[0],
      (typeof students)[0],
      (typeof students)[0],
      (typeof students)[0],
    ];
    const expectCounts = async (expected: Counts) => {
      const shown = await progressCards(teacher.headers, klass._id);
      expect(shown).toEqual(expected);
      expect(await recount(klass._id)).toEqual(expected);
    };
    await expectCounts({ [a]: { reviews: 0, failed: 0 }, [b]: { reviews: 0, failed: 0 } });

    // Reviews: each student answers card A, two fail; s1 answers card B twice.
    for (const [student, result] of [
      [s1, 'fail'],
      [s2, 'fail'],
      [s3, 'pass'],
      [s4, 'pass'],
    ] as const) {
      await reviewCard(ctx.app, student.headers, student.cards[0]?._id ?? '', result);
    }
    await reviewCard(ctx.app, s1.headers, s1.cards[1]?._id ?? '', 'pass');
    await reviewCard(ctx.app, s1.headers, s1.cards[1]?._id ?? '', 'fail');
    await expectCounts({ [a]: { reviews: 4, failed: 2 }, [b]: { reviews: 2, failed: 1 } });

    // Undo: s1's latest answer to B (a fail) leaves the count.
    const undo = await ctx.app.inject({
      method: 'POST',
      url: `/cards/${s1.cards[1]?._id}/undo-review`,
      headers: s1.headers,
    });
    expect(undo.statusCode, undo.body).toBe(200);
    await expectCounts({ [a]: { reviews: 4, failed: 2 }, [b]: { reviews: 1, failed: 0 } });

    // Offline sync: s2 sends a newer answer (applied) and one older than its last review (superseded, still logged).
    ctx.clock.advance(60_000);
    const now = ctx.clock.now();
    const sync = await ctx.app.inject({
      method: 'POST',
      url: '/reviews/sync',
      headers: s2.headers,
      payload: {
        reviews: [
          {
            id: randomUUID(),
            card_id: s2.cards[1]?._id,
            result: 'fail',
            reviewed_at: new Date(now - 1_000).toISOString(),
          },
          {
            id: randomUUID(),
            card_id: s2.cards[0]?._id,
            result: 'fail',
            reviewed_at: new Date(now - 3_600_000).toISOString(),
          },
        ],
      },
    });
    expect(sync.statusCode, sync.body).toBe(200);
    expect(sync.json<{ results: { status: string }[] }>().results.map((result) => result.status)).toEqual([
      'applied',
      'superseded',
    ]);
    await expectCounts({ [a]: { reviews: 5, failed: 3 }, [b]: { reviews: 2, failed: 1 } });

    // The teacher removes s1, s2 leaves, s3 deletes their account: each one's answers leave the class's figures.
    const remove = await ctx.app.inject({
      method: 'DELETE',
      url: `/classes/${klass._id}/members/${s1.user._id}`,
      headers: teacher.headers,
    });
    expect(remove.statusCode).toBe(204);
    await expectCounts({ [a]: { reviews: 4, failed: 2 }, [b]: { reviews: 1, failed: 1 } });
    const leave = await ctx.app.inject({
      method: 'DELETE',
      url: `/classes/${klass._id}/membership`,
      headers: s2.headers,
    });
    expect(leave.statusCode).toBe(204);
    await expectCounts({ [a]: { reviews: 2, failed: 0 }, [b]: { reviews: 0, failed: 0 } });
    expect((await deleteAccount(ctx.app, s3.headers)).statusCode).toBe(204);
    await expectCounts({ [a]: { reviews: 1, failed: 0 }, [b]: { reviews: 0, failed: 0 } });

    // A removed student's answers on their now ordinary deck never count; once back, their new copy's do.
    await reviewCard(ctx.app, s1.headers, s1.cards[0]?._id ?? '', 'fail');
    await joinClass(ctx.app, s1.headers, klass.join_code);
    const rejoined = await copyCards(s1.headers);
    await reviewCard(ctx.app, s1.headers, rejoined[1]?._id ?? '', 'fail');
    await expectCounts({ [a]: { reviews: 1, failed: 0 }, [b]: { reviews: 1, failed: 1 } });

    // The teacher deletes card B: its row goes with it, and an answer to a copy not yet synced is not counted.
    const deleted = await ctx.app.inject({ method: 'DELETE', url: `/cards/${b}`, headers: teacher.headers });
    expect(deleted.statusCode, deleted.body).toBe(204);
    await reviewCard(ctx.app, s4.headers, s4.cards[1]?._id ?? '', 'fail');
    await expectCounts({ [a]: { reviews: 1, failed: 0 } });
    const rows = await ctx.database.db.selectFrom('class_card_stats').selectAll().where('card_id', '=', b).execute();
    expect(rows).toEqual([]);
  });

  it('is rebuilt from the review log by the migration, as progress counted it', async () => {
    const { teacher, klass, cardIds, students } = await classOf(3);
    const [s1, s2, s3] = students as [(typeof students)[0], (typeof students)[0], (typeof students)[0]];
    await reviewCard(ctx.app, s1.headers, s1.cards[0]?._id ?? '', 'fail');
    await reviewCard(ctx.app, s2.headers, s2.cards[0]?._id ?? '', 'pass');
    await reviewCard(ctx.app, s2.headers, s2.cards[1]?._id ?? '', 'fail');
    await reviewCard(ctx.app, s3.headers, s3.cards[1]?._id ?? '', 'fail');
    const undo = await ctx.app.inject({
      method: 'POST',
      url: `/cards/${s3.cards[1]?._id}/undo-review`,
      headers: s3.headers,
    });
    expect(undo.statusCode).toBe(200);
    const leave = await ctx.app.inject({
      method: 'DELETE',
      url: `/classes/${klass._id}/membership`,
      headers: s1.headers,
    });
    expect(leave.statusCode).toBe(204);
    const [a, b] = cardIds as [string, string];
    const expected = { [a]: { reviews: 1, failed: 0 }, [b]: { reviews: 1, failed: 1 } };
    expect(await progressCards(teacher.headers, klass._id)).toEqual(expected);

    const migrator = await migratedBackTo(ctx.database, '0020-classes');
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const rows = await ctx.database.db
      .selectFrom('class_card_stats')
      .select(['card_id', 'reviews', 'failed'])
      .where('class_id', '=', klass._id)
      .orderBy('card_id')
      .execute();
    // Only cards that were answered get a row; the undone answer and the student who left count for nothing.
    expect(rows.map((row) => ({ ...row, reviews: Number(row.reviews), failed: Number(row.failed) }))).toEqual(
      [
        { card_id: a, reviews: 1, failed: 0 },
        { card_id: b, reviews: 1, failed: 1 },
      ].sort((x, y) => x.card_id.localeCompare(y.card_id)),
    );
    expect(await progressCards(teacher.headers, klass._id)).toEqual(expected);
    expect(await recount(klass._id)).toEqual(expected);
  });
});
