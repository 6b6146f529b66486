import type { Card, ClassDetail, ClassProgress, ClassSummary, DeckSummary } from '@flashcards/shared/api-types';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../../../test/support/api-error';
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

describe('classes: the access matrix, each refusal changing nothing', () => {
  it('a non-member gets 404 for everything of a class; a wrong code is 404; joining twice is 409', async () => {
    const { teacher, klass, students } = await classWithStudents(1);
    const stranger = await signUpAndLogIn(ctx.app);
    const before = await snapshot(stranger.user._id);
    const notFound = messages.classNotFound;
    expectError(await get(stranger.headers, `/classes/${klass._id}`), 404, 'class_not_found', notFound);
    expectError(await get(stranger.headers, `/classes/${klass._id}/progress`), 404, 'class_not_found', notFound);
    expectError(await get(stranger.headers, `/classes/${klass._id}/progress.csv`), 404, 'class_not_found', notFound);
    expectError(await get(stranger.headers, '/classes/not-an-id'), 404, 'class_not_found', notFound);
    const inject = (method: 'POST' | 'DELETE', url: string, payload?: object) =>
      ctx.app.inject({ method, url, headers: stranger.headers, ...(payload ? { payload } : {}) });
    const strangerDeck = await createDeck(ctx.app, stranger.headers, 'Mine');
    expectError(
      await inject('POST', `/classes/${klass._id}/decks`, { deck_id: strangerDeck._id }),
      404,
      'class_not_found',
      notFound,
    );
    const member = students[0] as User;
    expectError(
      await inject('DELETE', `/classes/${klass._id}/members/${member.user._id}`),
      404,
      'class_not_found',
      notFound,
    );
    expectError(await inject('DELETE', `/classes/${klass._id}/membership`), 404, 'class_not_found', notFound);
    expectError(await postJoin(ctx.app, stranger.headers, 'ZZZZZZZZ'), 404, 'class_not_found', notFound);
    expect((await get(stranger.headers, '/classes')).json()).toEqual([]);
    expect(await snapshot(stranger.user._id)).toEqual({ ...before, decks: [...before.decks, expect.anything()] });

    expectError(
      await postJoin(ctx.app, member.headers, klass.join_code),
      409,
      'already_member',
      messages.alreadyMember,
    );
    expectError(
      await postJoin(ctx.app, teacher.headers, klass.join_code),
      409,
      'already_member',
      serverMessages.ownClassJoin,
    );
    const members = await ctx.database.db
      .selectFrom('class_members')
      .select('user_id')
      .where('class_id', '=', klass._id)
      .execute();
    expect(members).toEqual([{ user_id: member.user._id }]);
  });

  it("a student sees the class, its teacher and decks, never another student's data or the progress", async () => {
    const { teacher, klass, students } = await classWithStudents(2);
    const [first, second] = students as [User, User];
    const detail = await get(first.headers, `/classes/${klass._id}`);
    expect(detail.statusCode).toBe(200);
    const body = detail.json<ClassDetail>();
    expect(body).toMatchObject({ role: 'student', teacher_name: 'Ada', join_code: null, student_count: null });
    expect(body.students).toBeNull();
    expect(JSON.stringify(body)).not.toContain(second.user._id);
    expect(JSON.stringify(body)).not.toContain(second.user.email);
    expect(JSON.stringify((await get(first.headers, '/classes')).json())).not.toContain(second.user.email);
    expectError(
      await get(first.headers, `/classes/${klass._id}/progress`),
      404,
      'class_not_found',
      messages.classNotFound,
    );
    expectError(
      await ctx.app.inject({
        method: 'DELETE',
        url: `/classes/${klass._id}/members/${second.user._id}`,
        headers: first.headers,
      }),
      404,
      'class_not_found',
      messages.classNotFound,
    );
    // A student cannot read another student's copy either.
    const secondCopy = await linkedCopy(second.headers);
    expectError(
      await get(first.headers, `/decks/${secondCopy._id}`),
      404,
      'deck_not_found',
      serverMessages.deckNotFound,
    );
    const teacherView = (await get(teacher.headers, `/classes/${klass._id}`)).json<ClassDetail>();
    expect(teacherView.students?.map((student) => student.user_id).sort()).toEqual(
      [first.user._id, second.user._id].sort(),
    );
    expect(teacherView.student_count).toBe(2);
  });

  it('a student cannot edit or delete the cards or notes of a linked deck: 403, nothing changed', async () => {
    const { students } = await classWithStudents(1);
    const student = students[0] as User;
    const copy = await linkedCopy(student.headers);
    const [card] = await deckCards(student.headers, copy._id);
    if (!card) throw new Error('no card');
    const noteId = card.note_id as string;
    const before = await snapshot(student.user._id);
    const readOnly = (response: Awaited<ReturnType<typeof get>>) =>
      expectError(response, 403, 'linked_deck_read_only', messages.linkedDeckReadOnly);
    const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      ctx.app.inject({ method, url, headers: student.headers, ...(payload ? { payload } : {}) });
    readOnly(await send('PUT', `/cards/${card._id}`, { question: 'Mine now', answer: 'x' }));
    readOnly(await send('DELETE', `/cards/${card._id}`));
    readOnly(await send('PUT', `/notes/${noteId}`, { fields: { front: 'Mine now', back: 'x' } }));
    readOnly(await send('DELETE', `/notes/${noteId}`));
    readOnly(await send('POST', '/notes', { deck_id: copy._id, type: 'basic', fields: { front: 'a', back: 'b' } }));
    readOnly(await send('POST', '/save-cards', { deck_id: copy._id, cards: [{ question: 'a', answer: 'b' }] }));
    readOnly(await send('DELETE', `/decks/${copy._id}`));
    expect(await snapshot(student.user._id)).toEqual(before);
    // Studying is as usual.
    const reviewed = await reviewCard(ctx.app, student.headers, card._id, 'pass');
    expect(reviewed.reps).toBe(1);
  });

  it("the teacher sees progress only on assigned decks, and cannot read a student's own deck", async () => {
    const { teacher, klass, students } = await classWithStudents(1);
    const student = students[0] as User;
    const own = await createDeck(ctx.app, student.headers, 'Private');
    const [privateCard] = await saveCards(ctx.app, student.headers, own._id, 1);
    await reviewCard(ctx.app, student.headers, privateCard?._id ?? '', 'fail');
    expectError(await get(teacher.headers, `/decks/${own._id}`), 404, 'deck_not_found', serverMessages.deckNotFound);
    expectError(
      await get(teacher.headers, `/decks/${own._id}/cards`),
      404,
      'deck_not_found',
      serverMessages.deckNotFound,
    );
    const progress = (await get(teacher.headers, `/classes/${klass._id}/progress`)).json<ClassProgress>();
    expect(progress.students).toEqual([
      expect.objectContaining({ reviews_7d: 0, cards_studied: 0, last_active: null }),
    ]);
    expect(progress.cards.every((card) => card.reviews === 0)).toBe(true);
  });

  it('a removed student gets 404 and keeps the copy unlinked; the teacher no longer sees their progress', async () => {
    const { teacher, klass, students } = await classWithStudents(2);
    const [removed, leaving] = students as [User, User];
    const copy = await linkedCopy(removed.headers);
    const [card] = await deckCards(removed.headers, copy._id);
    await reviewCard(ctx.app, removed.headers, card?._id ?? '', 'pass');
    const remove = await ctx.app.inject({
      method: 'DELETE',
      url: `/classes/${klass._id}/members/${removed.user._id}`,
      headers: teacher.headers,
    });
    expect(remove.statusCode).toBe(204);
    expectError(await get(removed.headers, `/classes/${klass._id}`), 404, 'class_not_found', messages.classNotFound);
    const kept = (await decksOf(removed.headers)).find((deck) => deck._id === copy._id);
    expect(kept).toMatchObject({ linked: false, class_id: null, card_count: 2 });
    // An ordinary deck now: the student may edit it, and the teacher's edits no longer reach it.
    const edit = await ctx.app.inject({
      method: 'PUT',
      url: `/cards/${card?._id}`,
      headers: removed.headers,
      payload: { question: 'My own words', answer: 'Mine' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const left = await ctx.app.inject({
      method: 'DELETE',
      url: `/classes/${klass._id}/membership`,
      headers: leaving.headers,
    });
    expect(left.statusCode).toBe(204);
    expect((await decksOf(leaving.headers)).map((deck) => deck.linked)).toEqual([false]);
    const progress = (await get(teacher.headers, `/classes/${klass._id}/progress`)).json<ClassProgress>();
    expect(progress.students).toEqual([]);
    expect(progress.cards.every((c) => c.reviews === 0)).toBe(true);
    expectError(
      await ctx.app.inject({
        method: 'DELETE',
        url: `/classes/${klass._id}/members/${removed.user._id}`,
        headers: teacher.headers,
      }),
      404,
      'member_not_found',
      serverMessages.memberNotFound,
    );
  });
});

describe('classes: limits, account deletion, several servers, concurrent syncs', () => {
  it('a class at CLASS_MAX_STUDENTS refuses the next student with 409 class_full', async () => {
    const { klass } = await classWithStudents(4);
    const late = await signUpAndLogIn(ctx.app);
    expectError(
      await postJoin(ctx.app, late.headers, klass.join_code),
      409,
      'class_full',
      fillMessage(serverMessages.classFull, { max: 4 }),
    );
    const count = await ctx.database.db
      .selectFrom('class_members')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('class_id', '=', klass._id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(4);
    expect(await decksOf(late.headers)).toEqual([]);
  });

  it("deleting the teacher's account leaves each student an unlinked copy with its history", async () => {
    const { teacher, klass, students } = await classWithStudents(2);
    const student = students[0] as User;
    const copy = await linkedCopy(student.headers);
    const [card] = await deckCards(student.headers, copy._id);
    await reviewCard(ctx.app, student.headers, card?._id ?? '', 'pass');
    expect((await deleteAccount(ctx.app, teacher.headers)).statusCode).toBe(204);
    const kept = (await decksOf(student.headers)).find((deck) => deck._id === copy._id);
    expect(kept).toMatchObject({ linked: false, class_id: null, card_count: 2 });
    expect((await deckCards(student.headers, copy._id)).find((c) => c._id === card?._id)?.reps).toBe(1);
    expect((await get(student.headers, '/classes')).json()).toEqual([]);
    const rows = await ctx.database.db.selectFrom('classes').select('id').where('id', '=', klass._id).execute();
    expect(rows).toEqual([]);
  });

  describe('a second app server on the same database', () => {
    let second: TestContext;
    beforeAll(async () => {
      second = await createTestApp({ shareWith: ctx, env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });
    });
    afterAll(async () => {
      await second.close();
    });

    it("carries the teacher's edit made on one server to a student reading on the other", async () => {
      const { teacher, cards, students } = await classWithStudents(1);
      const student = students[0] as User;
      const copy = await linkedCopy(student.headers, second.app);
      const studied = (await deckCards(student.headers, copy._id, second.app))[0] as Card;
      await reviewCard(second.app, student.headers, studied._id, 'pass');
      const edited = await ctx.app.inject({
        method: 'PUT',
        url: `/cards/${cards[0]?._id}`,
        headers: teacher.headers,
        payload: { question: 'Powerhouse of the eukaryotic cell?', answer: 'Mitochondria' },
      });
      expect(edited.statusCode, edited.body).toBe(200);
      const after = await deckCards(student.headers, copy._id, second.app);
      expect(after.find((card) => card._id === studied._id)).toMatchObject({
        question: 'Powerhouse of the eukaryotic cell?',
        reps: 1,
      });
    });
  });

  it('concurrent requests sync a copy once: no duplicate notes or cards', async () => {
    const { teacher, deck, students } = await classWithStudents(1);
    const student = students[0] as User;
    const copy = await linkedCopy(student.headers);
    for (let i = 0; i < 3; i += 1) {
      await addNote(ctx.app, teacher.headers, deck._id, 'cloze', { text: `{{c1::Part ${i}}} and {{c2::more ${i}}}` });
    }
    ctx.clock.advance(DAY);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => get(student.headers, i % 2 === 0 ? '/cards/due' : '/decks')),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    const rows = await ctx.database.db
      .selectFrom('cards')
      .select(['source_card_id'])
      .where('deck_id', '=', copy._id)
      .execute();
    expect(rows).toHaveLength(8);
    expect(new Set(rows.map((row) => row.source_card_id)).size).toBe(8);
    const notes = await ctx.database.db.selectFrom('notes').select('id').where('deck_id', '=', copy._id).execute();
    expect(notes).toHaveLength(5);
    expect((await linkedCopy(student.headers)).card_count).toBe(8);
  });
});

describe('classes: input', () => {
  it('refuses hostile names, join codes and CSV tables with 422 { detail, code }, writing nothing', async () => {
    const user = await signUpAndLogIn(ctx.app);
    const post = (url: string, payload: unknown) =>
      ctx.app.inject({ method: 'POST', url, headers: user.headers, payload: payload as object });
    expectValidationError(await post('/classes', { name: 'x'.repeat(101) }), 'name', serverMessages.classNameTooLong);
    expectValidationError(
      await post('/classes', { name: 'x'.repeat(100_000) }),
      'name',
      serverMessages.classNameTooLong,
    );
    expectValidationError(await post('/classes', { name: 42 }), 'name', messages.classNameEmpty);
    expect((await post('/classes', { name: 'a\u0000b' })).statusCode).toBe(422);
    expectValidationError(
      await post('/classes/join', { join_code: 'A'.repeat(10_000) }),
      'join_code',
      messages.classNotFound,
    );
    expectValidationError(await post('/classes/join', { join_code: ' - ' }), 'join_code', messages.joinCodeEmpty);
    expect((await get(user.headers, '/classes')).json()).toEqual([]);
    const klass = await createClass(ctx.app, user.headers, 'Tables');
    const csv = await get(user.headers, `/classes/${klass._id}/progress.csv?table=${'x'.repeat(5_000)}`);
    expect(csv.statusCode).toBe(422);
    expect(csv.json()).toMatchObject({ code: 'validation_failed', detail: serverMessages.validationFailed });
  });

  it('refuses an empty class name, and a class taught or joined past MAX_CLASSES_PER_USER', async () => {
    const user = await signUpAndLogIn(ctx.app);
    const empty = await ctx.app.inject({
      method: 'POST',
      url: '/classes',
      headers: user.headers,
      payload: { name: ' ' },
    });
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toMatchObject({ code: 'validation_failed', detail: messages.classNameEmpty });
    const list: ClassSummary[] = (await get(user.headers, '/classes')).json();
    expect(list).toEqual([]);

    const strict = await createTestApp({ shareWith: ctx, env: { MAX_CLASSES_PER_USER: '1' } });
    try {
      const taught = await createClass(strict.app, user.headers);
      const other = await signUpAndLogIn(ctx.app);
      const otherClass = await createClass(ctx.app, other.headers);
      const detail = fillMessage(serverMessages.tooManyClasses, { max: 1 });
      const second = await strict.app.inject({
        method: 'POST',
        url: '/classes',
        headers: user.headers,
        payload: { name: 'B' },
      });
      expectError(second, 422, 'too_many_classes', detail);
      expectError(await postJoin(strict.app, user.headers, otherClass.join_code), 422, 'too_many_classes', detail);
      const rows = await ctx.database.db
        .selectFrom('classes')
        .select('id')
        .where('teacher_id', '=', user.user._id)
        .execute();
      expect(rows).toEqual([{ id: taught._id }]);
    } finally {
      await strict.close();
    }
  });
});
