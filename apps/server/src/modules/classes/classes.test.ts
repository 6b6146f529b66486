import type { Card, ClassDetail, ClassProgress, ClassSummary, DeckSummary } from '@flashcards/shared/api-types';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../../test/support/api-error';
import { addNote, assignDeck, createClass, joinClass, postJoin } from '../../../test/support/classes';
import { type AuthHeaders, deleteAccount, signUpAndLogIn } from '../../../test/support/factories';
import { createDeck, DAY, dueCards, reviewCard, saveCards } from '../../../test/support/study';
import { createTestApp, type TestContext, useTestApp } from '../../../test/support/test-app';

const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000', CLASS_MAX_STUDENTS: '4' } });

type User = Awaited<ReturnType<typeof signUpAndLogIn>>;

function get(headers: AuthHeaders, url: string, app = ctx.app) {
  return app.inject({ method: 'GET', url, headers });
}

async function decksOf(headers: AuthHeaders, app = ctx.app): Promise<DeckSummary[]> {
  const response = await get(headers, '/decks', app);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<DeckSummary[]>();
}

async function linkedCopy(headers: AuthHeaders, app = ctx.app): Promise<DeckSummary> {
  const copy = (await decksOf(headers, app)).find((deck) => deck.linked);
  if (!copy) throw new Error('no linked copy');
  return copy;
}

async function deckCards(headers: AuthHeaders, deckId: string, app = ctx.app): Promise<Card[]> {
  const response = await get(headers, `/decks/${deckId}/cards`, app);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Card[]>();
}

/** A teacher with a class, a deck of two basic cards assigned to it, and `students` students who joined. */
async function classWithStudents(students: number) {
  const teacher = await signUpAndLogIn(ctx.app);
  const klass = await createClass(ctx.app, teacher.headers);
  const deck = await createDeck(ctx.app, teacher.headers, 'Cells');
  const cards = await saveCards(ctx.app, teacher.headers, deck._id, [
    { question: 'Powerhouse of the cell?', answer: 'Mitochondria' },
    { question: 'Plant cell wall?', answer: 'Cellulose' },
  ]);
  await assignDeck(ctx.app, teacher.headers, klass._id, deck._id);
  const members: User[] = [];
  for (let i = 0; i < students; i += 1) {
    const student = await signUpAndLogIn(ctx.app);
    await joinClass(ctx.app, student.headers, klass.join_code);
    members.push(student);
  }
  return { teacher, klass, deck, cards, students: members };
}

/** Every row of the user's that a refused request must leave as it was. */
async function snapshot(userId: string) {
  const db = ctx.database.db;
  return {
    decks: await db.selectFrom('decks').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    cards: await db.selectFrom('cards').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    notes: await db.selectFrom('notes').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    members: await db.selectFrom('class_members').selectAll().where('user_id', '=', userId).execute(),
  };
}

describe('classes: the whole flow with a teacher and three students', () => {
  it('creates, joins, links copies, syncs every note type keeping history, and shows progress', async () => {
    ctx.clock.set('2026-12-01T10:00:00.000Z');
    const teacher = await signUpAndLogIn(ctx.app);
    const created = await createClass(ctx.app, teacher.headers, 'Biology 101');
    expect(created).toMatchObject({ name: 'Biology 101', role: 'teacher', student_count: 0, decks: [] });
    expect(created.join_code).toMatch(/^[A-HJKMNP-Z]{8}$/);
    expect(created.created_at).toBe('2026-12-01T10:00:00.000Z');

    const deck = await createDeck(ctx.app, teacher.headers, 'Cells');
    const basic = await addNote(ctx.app, teacher.headers, deck._id, 'basic', { front: 'ATP?', back: 'Energy' });
    const cloze = await addNote(ctx.app, teacher.headers, deck._id, 'cloze', {
      text: '{{c1::Mitochondria}} make {{c2::ATP}}',
    });
    const reversed = await addNote(ctx.app, teacher.headers, deck._id, 'reversed', { front: 'Cell', back: 'Zelle' });
    const assigned = await assignDeck(ctx.app, teacher.headers, created._id, deck._id);
    expect(assigned.decks).toEqual([
      { _id: deck._id, name: 'Cells', card_count: 5, copy_deck_id: null, assigned_at: '2026-12-01T10:00:00.000Z' },
    ]);

    const students = [await signUpAndLogIn(ctx.app), await signUpAndLogIn(ctx.app), await signUpAndLogIn(ctx.app)];
    for (const student of students) {
      // Case and a dash aside, as a code read off a board.
      const code = `${created.join_code.slice(0, 4).toLowerCase()}-${created.join_code.slice(4)}`;
      const joined = await joinClass(ctx.app, student.headers, code);
      expect(joined).toMatchObject({ _id: created._id, role: 'student', teacher_name: 'Ada', join_code: null });
      expect(joined.student_count).toBeNull();
      const copy = await linkedCopy(student.headers);
      expect(joined.decks[0]?.copy_deck_id).toBe(copy._id);
      expect(copy).toMatchObject({ name: 'Cells', class_id: created._id, linked: true, card_count: 5 });
    }
    const [first, second] = students as [User, User, User];
    const copy = await linkedCopy(first.headers);
    const before = await deckCards(first.headers, copy._id);
    // The student studies: one pass and one fail, history the teacher's edits must keep.
    const atp = before.find((card) => card.question === 'ATP?') as Card;
    const mito = before.find((card) => card.question.includes('[...] make ATP')) as Card;
    await reviewCard(ctx.app, first.headers, atp._id, 'pass');
    await reviewCard(ctx.app, first.headers, mito._id, 'fail');
    const secondCards = await deckCards(second.headers, (await linkedCopy(second.headers))._id);
    await reviewCard(ctx.app, second.headers, secondCards.find((card) => card.question === 'ATP?')?._id ?? '', 'fail');

    // The teacher edits the basic note and the cloze (c2 gone, c3 added), deletes the reversed note, adds one.
    ctx.clock.advance(60_000);
    const put = (noteId: string, fields: Record<string, unknown>) =>
      ctx.app.inject({ method: 'PUT', url: `/notes/${noteId}`, headers: teacher.headers, payload: { fields } });
    expect((await put(basic._id, { front: 'ATP stands for?', back: 'Adenosine triphosphate' })).statusCode).toBe(200);
    expect((await put(cloze._id, { text: '{{c1::Mitochondria}} make energy in {{c3::cells}}' })).statusCode).toBe(200);
    const removed = await ctx.app.inject({ method: 'DELETE', url: `/notes/${reversed._id}`, headers: teacher.headers });
    expect(removed.statusCode).toBe(204);
    await addNote(ctx.app, teacher.headers, deck._id, 'basic', { front: 'Ribosome?', back: 'Protein factory' });
    // Nothing was written to the students' copies at edit time.
    const untouched = await ctx.database.db
      .selectFrom('cards')
      .select('question')
      .where('deck_id', '=', copy._id)
      .execute();
    expect(untouched.map((card) => card.question)).toContain('ATP?');

    const due = await dueCards(ctx.app, first.headers);
    const after = await deckCards(first.headers, copy._id);
    expect(after.map((card) => card.question).sort()).toEqual(
      ['ATP stands for?', '[...] make energy in cells', 'Mitochondria make energy in [...]', 'Ribosome?'].sort(),
    );
    const editedAtp = after.find((card) => card._id === atp._id) as Card;
    expect(editedAtp).toMatchObject({ question: 'ATP stands for?', answer: 'Adenosine triphosphate', reps: 1 });
    const editedMito = after.find((card) => card._id === mito._id) as Card;
    expect(editedMito).toMatchObject({ question: '[...] make energy in cells', reps: 1, lapses: 0 });
    expect(due.length).toBeGreaterThan(0);
    const logs = await ctx.database.db
      .selectFrom('review_logs')
      .select('card_id')
      .where('user_id', '=', first.user._id)
      .execute();
    expect(logs.map((log) => log.card_id).sort()).toEqual([atp._id, mito._id].sort());
    // The copy's counters follow: 4 cards, 2 of them studied.
    expect((await linkedCopy(first.headers)).card_count).toBe(4);

    const progress = await get(teacher.headers, `/classes/${created._id}/progress`);
    expect(progress.statusCode, progress.body).toBe(200);
    const body = progress.json<ClassProgress>();
    expect(body.students).toHaveLength(3);
    const firstRow = body.students.find((row) => row.user_id === first.user._id);
    expect(firstRow).toEqual({
      user_id: first.user._id,
      name: 'Ada',
      email: first.user.email,
      cards_studied: 2,
      reviews_7d: 2,
      retention_30d: 0.5,
      last_active: '2026-12-01T10:00:00.000Z',
    });
    expect(body.students.find((row) => row.user_id === students[2]?.user._id)).toMatchObject({
      cards_studied: 0,
      reviews_7d: 0,
      retention_30d: null,
      last_active: null,
    });
    // The cloze's first card: one review, failed; the ATP card: two reviews, one "don't know"; then the unstudied.
    expect(body.cards.slice(0, 2)).toEqual([
      { card_id: cloze.card_ids[0], question: '[...] make energy in cells', reviews: 1, failed: 1, fail_rate: 1 },
      { card_id: basic.card_ids[0], question: 'ATP stands for?', reviews: 2, failed: 1, fail_rate: 0.5 },
    ]);
    expect(body.cards.slice(2).map((card) => [card.question, card.reviews])).toEqual(
      expect.arrayContaining([
        ['Mitochondria make energy in [...]', 0],
        ['Ribosome?', 0],
      ]),
    );
    expect(body.cards).toHaveLength(4);

    const csv = await get(teacher.headers, `/classes/${created._id}/progress.csv?table=cards`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body.split('\r\n').slice(0, 3)).toEqual([
      'card_id,question,reviews,failed,fail_rate',
      `${cloze.card_ids[0]},[...] make energy in cells,1,1,1`,
      `${basic.card_ids[0]},ATP stands for?,2,1,0.5`,
    ]);
    const studentsCsv = await get(teacher.headers, `/classes/${created._id}/progress.csv`);
    expect(studentsCsv.body.split('\r\n')[0]).toBe(
      'user_id,name,email,cards_studied,reviews_7d,retention_30d,last_active',
    );
    expect(studentsCsv.body).toContain(`${first.user._id},Ada,${first.user.email},2,2,0.5,2026-12-01T10:00:00.000Z`);
  });
});
