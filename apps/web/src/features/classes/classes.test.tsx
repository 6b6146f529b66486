import type { ClassProgress, ClassSummary, DeckSummary } from '@flashcards/shared/api-types';
import { classMessages } from '@flashcards/shared/class-messages';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeCall, fakeServer, json } from '../../../test/fake-server';
import { biologyDeck, newCard } from '../../../test/fixtures';
import { giveEveryElementASize } from '../../../test/lay-out';
import { renderApp, testUser } from '../../../test/render-app';
import { localStore } from '../../lib/local-store';
import { storageKeys } from '../../lib/storage-keys';

// Issue 38, item 4: the class screens (list, create, join by code and by link, teacher's and student's class page,
// Assign deck, leave, remove) and class decks in the deck list.

const classId = '75a1b2c3d4e5f6a7b8c9d0c1';
const otherClassId = '75a1b2c3d4e5f6a7b8c9d0c2';
const copyId = '65a1b2c3d4e5f6a7b8c9d0cc';
const studentId = '65a1b2c3d4e5f6a7b8c9d0e9';

const taught: ClassSummary = {
  _id: classId,
  name: 'Biology 7B',
  role: 'teacher',
  created_at: '2026-11-22T10:00:00.000Z',
  teacher_name: 'Ada',
  join_code: 'KQ7MXP',
  student_count: 1,
  decks: [
    { _id: biologyDeck._id, name: 'Biology', card_count: 2, copy_deck_id: null, assigned_at: '2026-11-22T11:00:00Z' },
  ],
};
const attended: ClassSummary = {
  _id: otherClassId,
  name: 'French 2',
  role: 'student',
  created_at: '2026-11-20T10:00:00.000Z',
  teacher_name: 'Mme Curie',
  join_code: null,
  student_count: null,
  decks: [
    { _id: 'teachers-deck', name: 'Verbs', card_count: 30, copy_deck_id: copyId, assigned_at: '2026-11-21T09:00:00Z' },
  ],
};
const ownDeck: DeckSummary = { ...biologyDeck, card_count: 2, counts: { new: 2, learning: 0, due: 0 } };
const linkedDeck: DeckSummary = {
  ...biologyDeck,
  _id: copyId,
  name: 'Verbs',
  card_count: 30,
  class_id: otherClassId,
  linked: true,
  counts: { new: 20, learning: 0, due: 0 },
};
const progress: ClassProgress = {
  students: [
    {
      user_id: studentId,
      name: 'Ben',
      email: 'ben@example.com',
      cards_studied: 12,
      reviews_7d: 34,
      retention_30d: 0.85,
      last_active: '2026-11-25T08:30:00.000Z',
    },
  ],
  cards: [
    { card_id: 'card-hard', question: '=SUM(A1) is **mitosis**?', reviews: 10, failed: 7, fail_rate: 0.7 },
    { card_id: 'card-easy', question: 'What is a cell?', reviews: 8, failed: 1, fail_rate: 0.125 },
  ],
};

/** A card of the class copy. */
const copyCard = newCard({ _id: 'c1aaaaaaaaaaaaaaaaaaaaaa', deck_id: copyId, question: 'être', answer: 'to be' });

type Routes = Parameters<typeof fakeServer>[0];

function start(path: string, routes: Routes = {}, signedIn = true) {
  if (signedIn) localStore.set(storageKeys.accessToken, 'token');
  const server = fakeServer({
    'GET /users/me': () => json(200, testUser),
    'GET /classes': () => json(200, [taught, attended]),
    'GET /decks': () => json(200, [ownDeck, linkedDeck]),
    'GET /decks/stats': () =>
      json(200, {
        total_cards: 32,
        new_cards: 22,
        learning_cards: 0,
        due_cards: 0,
        cards_reviewed_today: 0,
        next_due_time: null,
      }),
    [`GET /classes/${classId}/progress`]: () => json(200, progress),
    ...routes,
  });
  const view = renderApp(path, server.fetch);
  return { ...view, calls: server.calls };
}

const callsTo = (calls: FakeCall[], method: string, path: string) =>
  calls.filter((call) => call.method === method && call.path === path);

afterEach(() => {
  vi.restoreAllMocks();
  localStore.remove(storageKeys.accessToken);
  localStore.remove(storageKeys.pendingClassJoin);
});

describe('classes list', () => {
  it('is in the top bar and lists the classes taught and attended, with the teacher of each attended one', async () => {
    start('/my-classes');
    // The first test pays for loading the page's chunk.
    const link = await screen.findByRole('link', { name: 'Biology 7B' }, { timeout: 4000 });
    expect(link).toHaveAttribute('href', `/my-classes/${classId}`);
    const nav = screen.getByRole('banner');
    expect(within(nav).getByRole('link', { name: 'Classes' })).toHaveAttribute('href', '/my-classes');
    const french = screen.getByRole('link', { name: 'French 2' }).closest('li');
    if (!french) throw new Error('no class row');
    expect(french).toHaveTextContent(classMessages.roleStudent);
    expect(french).toHaveTextContent('Teacher: Mme Curie');
    expect(document.title).toBe('Classes | AI Flashcards');
  });

  it('creates a class and shows its join code and join link, each with a copy button', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const created: ClassSummary = { ...taught, _id: 'new-class', name: 'Chemistry 9', join_code: 'ZT4WQN', decks: [] };
    const { calls } = start('/my-classes', { 'POST /classes': () => json(201, created) });
    const form = (await screen.findByRole('heading', { name: classMessages.createHeading })).closest('section');
    if (!form) throw new Error('no create form');
    fireEvent.click(within(form).getByRole('button', { name: classMessages.createButton }));
    expect(await within(form).findByText(messages.classNameEmpty)).toBeInTheDocument();
    expect(callsTo(calls, 'POST', '/classes')).toHaveLength(0);

    fireEvent.change(within(form).getByLabelText(classMessages.createNameLabel), {
      target: { value: '  Chemistry 9 ' },
    });
    fireEvent.click(within(form).getByRole('button', { name: classMessages.createButton }));
    expect(
      await within(form).findByText(fillMessage(classMessages.created, { name: 'Chemistry 9' })),
    ).toBeInTheDocument();
    expect(JSON.parse(callsTo(calls, 'POST', '/classes')[0]?.body ?? 'null')).toEqual({ name: 'Chemistry 9' });
    expect(within(form).getByLabelText(classMessages.joinCodeLabel)).toHaveValue('ZT4WQN');
    const link = `${window.location.origin}/join/ZT4WQN`;
    expect(within(form).getByLabelText(classMessages.joinLinkLabel)).toHaveValue(link);
    fireEvent.click(
      within(form).getByRole('button', { name: `${classMessages.copyLink}: ${classMessages.joinLinkLabel}` }),
    );
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(link));
    fireEvent.click(
      within(form).getByRole('button', { name: `${classMessages.copyCode}: ${classMessages.joinCodeLabel}` }),
    );
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('ZT4WQN'));
  });

  it('joins by code after saying what the teacher will see, then opens the class', async () => {
    const joined: ClassSummary = { ...attended, _id: 'joined-class', name: 'Physics' };
    let classes = [taught];
    const { calls, router } = start('/my-classes', {
      'GET /classes': () => json(200, classes),
      'POST /classes/join': () => {
        classes = [taught, joined];
        return json(200, joined);
      },
    });
    const form = (await screen.findByRole('heading', { name: classMessages.joinHeading })).closest('section');
    if (!form) throw new Error('no join form');
    expect(within(form).getByText(classMessages.joinDisclosure)).toBeInTheDocument();
    fireEvent.change(within(form).getByLabelText(classMessages.joinCodeFieldLabel), { target: { value: ' KQ7MXP ' } });
    fireEvent.click(within(form).getByRole('button', { name: classMessages.joinButton }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/my-classes/joined-class'));
    expect(JSON.parse(callsTo(calls, 'POST', '/classes/join')[0]?.body ?? 'null')).toEqual({ join_code: 'KQ7MXP' });
    expect(await screen.findByRole('heading', { name: 'Physics', level: 1 })).toBeInTheDocument();
  });

  it('says so for a wrong code and for a class the user is already in', async () => {
    const answers = [
      json(404, { detail: 'Class not found.', code: 'class_not_found' }),
      json(409, { detail: 'Already.', code: 'already_member' }),
    ];
    start('/my-classes', { 'POST /classes/join': () => answers.shift() ?? json(500, {}) });
    const form = (await screen.findByRole('heading', { name: classMessages.joinHeading })).closest('section');
    if (!form) throw new Error('no join form');
    fireEvent.change(within(form).getByLabelText(classMessages.joinCodeFieldLabel), { target: { value: 'NOPE' } });
    fireEvent.click(within(form).getByRole('button', { name: classMessages.joinButton }));
    expect(await within(form).findByText(messages.classNotFound)).toBeInTheDocument();
    fireEvent.click(within(form).getByRole('button', { name: classMessages.joinButton }));
    expect(await within(form).findByText(messages.alreadyMember)).toBeInTheDocument();
  });
});

describe('join link', () => {
  it('sends a visitor to sign in with the code kept, and shows first what the teacher will see', async () => {
    const { router, calls } = start('/join/KQ7MXP', { 'GET /users/me': () => json(401, {}) }, false);
    expect(await screen.findByText(classMessages.joinDisclosure)).toBeInTheDocument();
    fireEvent.click(await screen.findByRole('button', { name: classMessages.joinPageSignIn }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(localStore.get(storageKeys.pendingClassJoin)).toBe('KQ7MXP');
    expect(callsTo(calls, 'POST', '/classes/join')).toHaveLength(0);
  });

  it('joins by itself once the visitor comes back signed in, then opens the class', async () => {
    localStore.set(storageKeys.pendingClassJoin, 'KQ7MXP');
    const { router, calls } = start('/join/KQ7MXP', { 'POST /classes/join': () => json(200, attended) });
    await waitFor(() => expect(router.state.location.pathname).toBe(`/my-classes/${otherClassId}`));
    expect(callsTo(calls, 'POST', '/classes/join')).toHaveLength(1);
    expect(localStore.get(storageKeys.pendingClassJoin)).toBeNull();
  });

  it('waits for the Join class button when the signed-in user did not come from sign-in', async () => {
    const { router, calls } = start('/join/KQ7MXP', { 'POST /classes/join': () => json(200, attended) });
    const button = await screen.findByRole('button', { name: classMessages.joinButton });
    expect(callsTo(calls, 'POST', '/classes/join')).toHaveLength(0);
    fireEvent.click(button);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/my-classes/${otherClassId}`));
  });
});

describe('class page', () => {
  it("shows the teacher the invite, the assigned decks and each student's figures and the cards hardest first", async () => {
    start(`/my-classes/${classId}`);
    expect(await screen.findByRole('heading', { name: 'Biology 7B', level: 1 })).toBeInTheDocument();
    expect(screen.getByLabelText(classMessages.joinCodeLabel)).toHaveValue('KQ7MXP');
    const decks = screen.getByRole('heading', { name: classMessages.decksHeading }).closest('section');
    expect(decks).toHaveTextContent('Biology');
    const students = await screen.findByRole('region', { name: classMessages.studentsHeading });
    const row = within(students).getByRole('row', { name: /Ben/ });
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(expect.arrayContaining(['12', '34', '85%']));
    const cards = screen.getByRole('region', { name: classMessages.cardsHeading });
    const rows = within(cards).getAllByRole('row').slice(1);
    expect(rows.map((item) => within(item).getByRole('rowheader').textContent)).toEqual([
      '=SUM(A1) is mitosis?',
      'What is a cell?',
    ]);
    expect(
      within(rows[0] as HTMLElement)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['10', '7', '70%']);
  });

  it('downloads each table as CSV, formulas made harmless', async () => {
    const blobs: Blob[] = [];
    const names: string[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:csv';
    });
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    start(`/my-classes/${classId}`);
    await screen.findByRole('region', { name: classMessages.studentsHeading });
    fireEvent.click(
      screen.getByRole('button', { name: `${classMessages.downloadCsv}: ${classMessages.studentsHeading}` }),
    );
    fireEvent.click(
      screen.getByRole('button', { name: `${classMessages.downloadCsv}: ${classMessages.cardsHeading}` }),
    );
    expect(names).toEqual(['biology-7b-students.csv', 'biology-7b-cards.csv']);
    expect(await blobs[0]?.text()).toBe(
      'Student,Email,Cards studied,Reviews (7 days),Retention (30 days),Last active\r\n' +
        'Ben,ben@example.com,12,34,0.85,2026-11-25T08:30:00.000Z',
    );
    expect(await blobs[1]?.text()).toBe(
      'Card,Reviews,Don’t know,Share\r\n' + "'=SUM(A1) is **mitosis**?,10,7,0.7\r\n" + 'What is a cell?,8,1,0.125',
    );
  });

  it('lets the teacher remove a student after confirming', async () => {
    const { calls } = start(`/my-classes/${classId}`, {
      [`DELETE /classes/${classId}/members/${studentId}`]: () => new Response(null, { status: 204 }),
    });
    fireEvent.click(await screen.findByRole('button', { name: `${classMessages.removeStudent}: Ben` }));
    const dialog = await screen.findByRole('dialog', { name: classMessages.removeStudentTitle });
    expect(dialog).toHaveTextContent(
      fillMessage(classMessages.removeStudentConfirm, { name: 'Ben', class: 'Biology 7B' }),
    );
    fireEvent.click(within(dialog).getByRole('button', { name: classMessages.removeStudent }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(callsTo(calls, 'DELETE', `/classes/${classId}/members/${studentId}`)).toHaveLength(1);
  });

  it('assigns one of the teacher’s own decks (never a class copy) from the class page', async () => {
    const { calls } = start(`/my-classes/${classId}`, {
      [`POST /classes/${classId}/decks`]: () => json(201, {}),
    });
    const form = await screen.findByRole('form', { name: classMessages.assignHeading });
    const select = within(form).getByLabelText('Deck');
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Biology']);
    fireEvent.click(within(form).getByRole('button', { name: classMessages.assignButton }));
    expect(
      await within(form).findByText(fillMessage(classMessages.assigned, { deck: 'Biology', class: 'Biology 7B' })),
    ).toBeInTheDocument();
    expect(JSON.parse(callsTo(calls, 'POST', `/classes/${classId}/decks`)[0]?.body ?? 'null')).toEqual({
      deck_id: biologyDeck._id,
    });
  });

  it('shows a student the class, its teacher and its decks, never the progress tables; Leave asks first', async () => {
    const { calls, router } = start(`/my-classes/${otherClassId}`, {
      [`DELETE /classes/${otherClassId}/membership`]: () => new Response(null, { status: 204 }),
    });
    expect(await screen.findByRole('heading', { name: 'French 2', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Teacher: Mme Curie')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: `${classMessages.studyDeck}: Verbs` })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: classMessages.studentsHeading })).not.toBeInTheDocument();
    expect(callsTo(calls, 'GET', `/classes/${otherClassId}/progress`)).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: classMessages.leaveButton }));
    const dialog = await screen.findByRole('dialog', { name: classMessages.leaveTitle });
    expect(dialog).toHaveTextContent(fillMessage(classMessages.leaveConfirm, { name: 'French 2' }));
    fireEvent.click(within(dialog).getByRole('button', { name: classMessages.leaveButton }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/my-classes'));
    expect(callsTo(calls, 'DELETE', `/classes/${otherClassId}/membership`)).toHaveLength(1);
  });

  it('says so for a class the user is not in', async () => {
    start('/my-classes/unknown-class');
    expect(await screen.findByText(classMessages.classNotFound)).toBeInTheDocument();
  });
});

describe('class decks in the deck list', () => {
  beforeEach(giveEveryElementASize);

  it('marks a class copy "From class X" without Share or Delete, and offers a teacher Assign to class', async () => {
    const { calls } = start('/review', { [`POST /classes/${classId}/decks`]: () => json(201, {}) });
    const copy = (await screen.findByRole('heading', { name: 'Verbs', level: 2 })).closest('li');
    if (!copy) throw new Error('no deck row');
    expect(await within(copy).findByText('From class French 2')).toBeInTheDocument();
    expect(within(copy).queryByRole('button', { name: 'Share: Verbs' })).not.toBeInTheDocument();
    expect(within(copy).queryByRole('button', { name: 'Delete: Verbs' })).not.toBeInTheDocument();
    expect(
      within(copy).queryByRole('button', { name: `${classMessages.assignToClass}: Verbs` }),
    ).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: `${classMessages.assignToClass}: Biology` }));
    const dialog = await screen.findByRole('dialog', { name: `${classMessages.assignHeading}: Biology` });
    const select = within(dialog).getByLabelText(classMessages.assignClassLabel);
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Biology 7B']);
    fireEvent.click(within(dialog).getByRole('button', { name: classMessages.assignButton }));
    expect(
      await within(dialog).findByText(fillMessage(classMessages.assigned, { deck: 'Biology', class: 'Biology 7B' })),
    ).toBeInTheDocument();
    expect(JSON.parse(callsTo(calls, 'POST', `/classes/${classId}/decks`)[0]?.body ?? 'null')).toEqual({
      deck_id: biologyDeck._id,
    });
  });

  it('offers no Assign to class to someone who teaches no class', async () => {
    start('/review', { 'GET /classes': () => json(200, [attended]) });
    await screen.findByText('From class French 2');
    expect(screen.queryByRole('button', { name: `${classMessages.assignToClass}: Biology` })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Share: Biology' })).toBeInTheDocument();
  });

  it('shows the read-only rule when the server refuses an edit of a class copy the list did not know of', async () => {
    const { calls } = start('/review', {
      [`GET /decks/${biologyDeck._id}/cards`]: () => json(200, { cards: [copyCard], next_cursor: null }),
      [`GET /decks/${biologyDeck._id}/stats`]: () => json(200, {}),
      [`PUT /cards/${copyCard._id}`]: () =>
        json(403, { detail: messages.linkedDeckReadOnly, code: 'linked_deck_read_only' }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Settings: Biology' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deck settings: Biology' });
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Cards' }));
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Edit card 1' }));
    fireEvent.change(within(dialog).getByLabelText('Answer'), { target: { value: 'to exist' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save card' }));
    expect(await within(dialog).findByText(messages.linkedDeckReadOnly)).toBeInTheDocument();
    expect(callsTo(calls, 'PUT', `/cards/${copyCard._id}`)).toHaveLength(1);
  });

  it("lists a class copy's cards in its Cards tab without Add, Edit or Delete", async () => {
    start('/review', {
      [`GET /decks/${copyId}/cards`]: () => json(200, { cards: [copyCard], next_cursor: null }),
      [`GET /decks/${copyId}/stats`]: () => json(200, {}),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Settings: Verbs' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deck settings: Verbs' });
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Cards' }));
    expect(await within(dialog).findByText('to be')).toBeInTheDocument();
    expect(within(dialog).getByText(classMessages.linkedReadOnly)).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: messages.addCard })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: /^Edit/ })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
  });
});
