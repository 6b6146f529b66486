import type { Card, Note, NoteWithCards } from '@flashcards/shared/api-types';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../../../test/support/api-error';
import { signUpAndLogIn } from '../../../test/support/factories';
import { createDeck, learnerWithDeck, postSaveCards, reviewCard } from '../../../test/support/study';
import { useTestApp } from '../../../test/support/test-app';

const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000', MAX_CARDS_PER_USER: '12' } });

type Headers = { authorization: string };

function postNote(headers: Headers, payload: unknown) {
  return ctx.app.inject({ method: 'POST', url: '/notes', headers, payload: payload as object });
}

async function createNote(headers: Headers, payload: unknown): Promise<NoteWithCards> {
  const response = await postNote(headers, payload);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<NoteWithCards>();
}

function putNote(headers: Headers, noteId: string, payload: unknown) {
  return ctx.app.inject({ method: 'PUT', url: `/notes/${noteId}`, headers, payload: payload as object });
}

/** Every note and card row of the user, to assert that a refused request wrote nothing. */
async function rowsOf(userId: string) {
  const db = ctx.database.db;
  const notes = await db.selectFrom('notes').select(['id', 'type', 'fields']).where('user_id', '=', userId).execute();
  const cards = await db
    .selectFrom('cards')
    .select(['id', 'note_id', 'card_type', 'ord', 'question', 'answer'])
    .where('user_id', '=', userId)
    .orderBy('note_id')
    .orderBy('ord')
    .execute();
  return { notes, cards };
}

async function deckCounters(deckId: string) {
  const row = await ctx.database.db
    .selectFrom('decks')
    .select(['new_cards', 'learning_cards', 'review_cards'])
    .where('id', '=', deckId)
    .executeTakeFirstOrThrow();
  return row;
}

const clozeText = '{{c1::Mitochondria}} make {{c2::ATP::molecule}}.';

describe('POST /notes', () => {
  it('a basic note makes one card, answered as { note, cards } and stored with its note', async () => {
    const { headers, user, deck } = await learnerWithDeck(ctx.app);
    const body = await createNote(headers, { deck_id: deck._id, type: 'basic', fields: { front: 'F', back: 'B' } });
    const now = new Date(ctx.clock.now()).toISOString();
    const [card] = body.cards;
    expect(body.note).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      deck_id: deck._id,
      type: 'basic',
      fields: { front: 'F', back: 'B' },
      card_ids: [card?._id],
      created_at: now,
      updated_at: now,
    });
    expect(body.cards).toEqual([
      {
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        deck_id: deck._id,
        question: 'F',
        answer: 'B',
        status: 'new',
        due_date: now,
        created_at: now,
        reps: 0,
        lapses: 0,
        note_id: body.note._id,
        card_type: 'basic',
        ord: 0,
        source: null,
      },
    ]);
    const rows = await rowsOf(user._id);
    expect(rows.notes).toEqual([{ id: body.note._id, type: 'basic', fields: '{"front":"F","back":"B"}' }]);
    expect(await deckCounters(deck._id)).toEqual({ new_cards: 1, learning_cards: 0, review_cards: 0 });
  });

  it('a reversed note makes two cards, front to back and back to front', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    const body = await createNote(headers, {
      _id: deck._id,
      type: 'reversed',
      fields: { front: 'der Hund', back: 'the dog' },
    });
    expect(body.cards.map((card) => [card.card_type, card.ord, card.question, card.answer])).toEqual([
      ['basic', 0, 'der Hund', 'the dog'],
      ['reverse', 1, 'the dog', 'der Hund'],
    ]);
    expect(body.note.card_ids).toEqual(body.cards.map((card) => card._id));
  });

  it('a cloze note makes one card per number, with hints and extra', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    const body = await createNote(headers, {
      deck_id: deck._id,
      type: 'cloze',
      fields: { text: clozeText, extra: 'Cell biology' },
    });
    expect(body.cards.map((card) => [card.card_type, card.ord, card.question, card.answer])).toEqual([
      ['cloze', 0, '[...] make ATP.', '**Mitochondria** make ATP.\n\nCell biology'],
      ['cloze', 1, 'Mitochondria make [molecule].', 'Mitochondria make **ATP**.\n\nCell biology'],
    ]);
    const get = await ctx.app.inject({ method: 'GET', url: `/notes/${body.note._id}`, headers });
    expect(get.statusCode).toBe(200);
    expect(get.json<Note>()).toEqual(body.note);
    const deckView = await ctx.app.inject({ method: 'GET', url: `/decks/${deck._id}`, headers });
    expect(deckView.json<{ flashcards: Card[] }>().flashcards).toEqual(body.cards);
  });

  describe('refuses a broken note with 422 and writes nothing', () => {
    const cases: [string, unknown, string, string][] = [
      [
        'cloze text without a deletion',
        { type: 'cloze', fields: { text: 'No blanks' } },
        'fields',
        messages.clozeMissing,
      ],
      [
        'an empty field',
        { type: 'basic', fields: { front: ' ', back: 'B' } },
        'fields',
        'The front field cannot be empty.',
      ],
      ['a missing field', { type: 'reversed', fields: { front: 'F' } }, 'fields', 'The back field cannot be empty.'],
      [
        'cloze number 0',
        { type: 'cloze', fields: { text: '{{c0::x}}' } },
        'fields',
        'Cloze number 0 is not allowed: numbers go from 1 to 500.',
      ],
      [
        'cloze number 501',
        { type: 'cloze', fields: { text: '{{c501::x}}' } },
        'fields',
        'Cloze number 501 is not allowed: numbers go from 1 to 500.',
      ],
      [
        'unbalanced braces',
        { type: 'cloze', fields: { text: '{{c1::$\\frac{1}{2$}}' } },
        'fields',
        'A cloze deletion {{c1::… is not closed: end it with }}.',
      ],
      [
        'a 100,000-character note',
        { type: 'cloze', fields: { text: `{{c1::x}}${'y'.repeat(99_991)}` } },
        'fields',
        'The text field can be at most 20,000 characters.',
      ],
      [
        'fields of the wrong type',
        { type: 'basic', fields: { text: '{{c1::x}}' } },
        'fields',
        'These fields do not fit a basic note.',
      ],
      [
        'fields that are not an object',
        { type: 'cloze', fields: 'text' },
        'fields',
        'These fields do not fit a cloze note.',
      ],
      ['an unknown type', { type: 'image', fields: { front: 'F', back: 'B' } }, 'type', messages.noteTypeUnknown],
      ['a type that is not text', { type: 7, fields: { front: 'F', back: 'B' } }, 'type', messages.noteTypeUnknown],
      ['no type', { fields: { front: 'F', back: 'B' } }, 'type', messages.noteTypeUnknown],
      [
        'an occlusion note without masks',
        { type: 'occlusion', fields: { image: 'x.png', masks: [], mode: 'hide_one' } },
        'fields',
        messages.occlusionMasksMissing,
      ],
    ];
    it.each(cases)('%s', async (_name, payload, field, detail) => {
      const { headers, user, deck } = await learnerWithDeck(ctx.app);
      const response = await postNote(headers, { deck_id: deck._id, ...(payload as object) });
      expectValidationError(response, field, detail);
      expect(await rowsOf(user._id)).toEqual({ notes: [], cards: [] });
    });
  });

  it('a note in another user’s deck, an unknown deck or a malformed id is 404 deck_not_found; no deck is 422', async () => {
    const owner = await learnerWithDeck(ctx.app);
    const { headers, user } = await signUpAndLogIn(ctx.app);
    const fields = { front: 'F', back: 'B' };
    for (const deckId of [owner.deck._id, 'f'.repeat(24), 'not-an-id']) {
      const response = await postNote(headers, { deck_id: deckId, type: 'basic', fields });
      expectError(response, 404, 'deck_not_found', serverMessages.deckNotFound);
    }
    expectValidationError(await postNote(headers, { type: 'basic', fields }), 'deck_id', messages.noDeckSelected);
    expect(await rowsOf(user._id)).toEqual({ notes: [], cards: [] });
    expect(await rowsOf(owner.user._id)).toEqual({ notes: [], cards: [] });
  });

  it('the card cap counts cards, not notes: a cloze note of 3 cards needs room for 3', async () => {
    const { headers, user, deck } = await learnerWithDeck(ctx.app, 10);
    const three = { deck_id: deck._id, type: 'cloze', fields: { text: '{{c1::a}} {{c2::b}} {{c3::c}}' } };
    const response = await postNote(headers, three);
    expectError(response, 422, 'too_many_cards', fillMessage(serverMessages.tooManyCardsInAccount, { max: 12 }));
    expect((await rowsOf(user._id)).cards).toHaveLength(10);
    await createNote(headers, { ...three, fields: { text: '{{c1::a}} {{c2::b}}' } });
    expect((await rowsOf(user._id)).cards).toHaveLength(12);
  });
});

describe('PUT /notes/{id}', () => {
  it('keeps the cards whose number is still there, with their schedule and history; removes and adds the others', async () => {
    const { headers, user, deck } = await learnerWithDeck(ctx.app);
    const created = await createNote(headers, {
      deck_id: deck._id,
      type: 'cloze',
      fields: { text: '{{c1::one}} {{c2::two}}' },
    });
    const [first, second] = created.cards;
    if (!first || !second) throw new Error('two cards expected');
    const reviewed = await reviewCard(ctx.app, headers, first._id, 'pass');
    await reviewCard(ctx.app, headers, second._id, 'fail');
    ctx.clock.advance(60_000);

    const response = await putNote(headers, created.note._id, { fields: { text: 'Now {{c1::uno}} and {{c3::tres}}' } });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<NoteWithCards>();
    expect(body.note).toMatchObject({
      _id: created.note._id,
      type: 'cloze',
      fields: { text: 'Now {{c1::uno}} and {{c3::tres}}' },
      created_at: created.note.created_at,
      updated_at: new Date(ctx.clock.now()).toISOString(),
    });
    expect(body.cards.map((card) => [card.ord, card.question, card.status, card.reps])).toEqual([
      [0, 'Now [...] and tres', reviewed.status, 1],
      [2, 'Now uno and [...]', 'new', 0],
    ]);
    expect(body.cards[0]).toMatchObject({ _id: first._id, due_date: reviewed.due_date });
    expect(body.cards[1]?._id).not.toBe(second._id);
    expect(body.note.card_ids).toEqual(body.cards.map((card) => card._id));

    const logs = await ctx.database.db
      .selectFrom('review_logs')
      .select('card_id')
      .where('user_id', '=', user._id)
      .execute();
    expect(logs).toEqual([{ card_id: first._id }]);
    // The deleted card was learning, the kept one is learning, the added one new.
    expect(await deckCounters(deck._id)).toEqual({ new_cards: 1, learning_cards: 1, review_cards: 0 });
    const { cards } = await rowsOf(user._id);
    expect(cards.map((card) => card.id).sort()).toEqual(body.cards.map((card) => card._id).sort());
  });

  it('a basic note edited keeps its card; a reversed note keeps both', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    const created = await createNote(headers, {
      deck_id: deck._id,
      type: 'reversed',
      fields: { front: 'a', back: 'b' },
    });
    const response = await putNote(headers, created.note._id, { fields: { front: 'A', back: 'B' } });
    const body = response.json<NoteWithCards>();
    expect(body.cards.map((card) => [card._id, card.question, card.answer])).toEqual([
      [created.cards[0]?._id, 'A', 'B'],
      [created.cards[1]?._id, 'B', 'A'],
    ]);
  });

  it('refuses broken fields, fields of another type and unknown notes, writing nothing', async () => {
    const { headers, user, deck } = await learnerWithDeck(ctx.app);
    const created = await createNote(headers, { deck_id: deck._id, type: 'cloze', fields: { text: clozeText } });
    const before = await rowsOf(user._id);
    expectValidationError(
      await putNote(headers, created.note._id, { fields: { text: 'no cloze' } }),
      'fields',
      messages.clozeMissing,
    );
    expectValidationError(
      await putNote(headers, created.note._id, { fields: { front: 'a', back: 'b' } }),
      'fields',
      'These fields do not fit a cloze note.',
    );
    const stranger = await signUpAndLogIn(ctx.app);
    for (const id of [created.note._id, 'f'.repeat(24), 'bad']) {
      const response = await putNote(stranger.headers, id, { fields: { text: '{{c1::x}}' } });
      expectError(response, 404, 'note_not_found', serverMessages.noteNotFound);
    }
    expect(await rowsOf(user._id)).toEqual(before);
  });

  it('the card cap counts the cards an edit adds', async () => {
    const { headers, user, deck } = await learnerWithDeck(ctx.app, 10);
    const created = await createNote(headers, { deck_id: deck._id, type: 'cloze', fields: { text: '{{c1::a}}' } });
    const before = await rowsOf(user._id);
    const response = await putNote(headers, created.note._id, { fields: { text: '{{c1::a}} {{c2::b}} {{c3::c}}' } });
    expectError(response, 422, 'too_many_cards', fillMessage(serverMessages.tooManyCardsInAccount, { max: 12 }));
    expect(await rowsOf(user._id)).toEqual(before);
  });
});

describe('DELETE /notes/{id}, GET /notes/{id}', () => {
  it('deletes the note, its cards and their history; another user gets 404', async () => {
    const { headers, user, deck } = await learnerWithDeck(ctx.app);
    const created = await createNote(headers, { deck_id: deck._id, type: 'cloze', fields: { text: clozeText } });
    await reviewCard(ctx.app, headers, created.cards[0]?._id ?? '', 'pass');
    const stranger = await signUpAndLogIn(ctx.app);
    for (const method of ['GET', 'DELETE'] as const) {
      const response = await ctx.app.inject({ method, url: `/notes/${created.note._id}`, headers: stranger.headers });
      expectError(response, 404, 'note_not_found', serverMessages.noteNotFound);
    }
    const response = await ctx.app.inject({ method: 'DELETE', url: `/notes/${created.note._id}`, headers });
    expect(response.statusCode).toBe(204);
    expect(await rowsOf(user._id)).toEqual({ notes: [], cards: [] });
    const logs = await ctx.database.db.selectFrom('review_logs').select('id').where('user_id', '=', user._id).execute();
    expect(logs).toEqual([]);
    expect(await deckCounters(deck._id)).toEqual({ new_cards: 0, learning_cards: 0, review_cards: 0 });
    const again = await ctx.app.inject({ method: 'GET', url: `/notes/${created.note._id}`, headers });
    expectError(again, 404, 'note_not_found', serverMessages.noteNotFound);
  });
});

describe('cards of notes', () => {
  it('PUT /cards/{id} edits a basic card and its note; on a cloze or reversed card it is 422 edit_note_instead', async () => {
    const { headers, user, deck } = await learnerWithDeck(ctx.app, 1);
    const { cards } = await rowsOf(user._id);
    const basic = cards[0];
    const edited = await ctx.app.inject({
      method: 'PUT',
      url: `/cards/${basic?.id}`,
      headers,
      payload: { question: 'New Q', answer: 'New A' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const note = await ctx.app.inject({ method: 'GET', url: `/notes/${basic?.note_id}`, headers });
    expect(note.json<Note>().fields).toEqual({ front: 'New Q', back: 'New A' });

    for (const payload of [
      { type: 'cloze', fields: { text: clozeText } },
      { type: 'reversed', fields: { front: 'a', back: 'b' } },
    ]) {
      const created = await createNote(headers, { deck_id: deck._id, ...payload });
      const before = await rowsOf(user._id);
      const response = await ctx.app.inject({
        method: 'PUT',
        url: `/cards/${created.cards[0]?._id}`,
        headers,
        payload: { question: 'x', answer: 'y' },
      });
      expectError(response, 422, 'edit_note_instead', messages.editNoteInstead);
      expect(await rowsOf(user._id)).toEqual(before);
    }
  });

  it('DELETE /cards/{id} deletes the card; the note goes with its last card', async () => {
    const { headers, user, deck } = await learnerWithDeck(ctx.app);
    const created = await createNote(headers, { deck_id: deck._id, type: 'cloze', fields: { text: clozeText } });
    const [first, second] = created.cards;
    const del = (id: string | undefined) => ctx.app.inject({ method: 'DELETE', url: `/cards/${id}`, headers });
    expect((await del(first?._id)).statusCode).toBe(204);
    let rows = await rowsOf(user._id);
    expect(rows.notes.map((note) => note.id)).toEqual([created.note._id]);
    expect(rows.cards.map((card) => card.id)).toEqual([second?._id]);
    expect((await del(second?._id)).statusCode).toBe(204);
    rows = await rowsOf(user._id);
    expect(rows).toEqual({ notes: [], cards: [] });
  });
});

describe('card fields of notes wherever cards are answered', () => {
  it('GET /cards/search, /cards/due, /decks/{id}/cards and POST /cards/review carry note_id, card_type and ord', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    const created = await createNote(headers, {
      deck_id: deck._id,
      type: 'reversed',
      fields: { front: 'Hund', back: 'dog' },
    });
    const expected = created.cards.map((card) => ({
      _id: card._id,
      note_id: created.note._id,
      card_type: card.card_type,
      ord: card.ord,
    }));
    const pick = (cards: Card[]) =>
      cards.map((card) => ({ _id: card._id, note_id: card.note_id, card_type: card.card_type, ord: card.ord }));
    const search = await ctx.app.inject({ method: 'GET', url: '/cards/search?q=hund', headers });
    expect(pick(search.json<{ cards: Card[] }>().cards).sort((a, b) => a.ord - b.ord)).toEqual(expected);
    const due = await ctx.app.inject({ method: 'GET', url: '/cards/due', headers });
    expect(pick(due.json<Card[]>())).toEqual(expected);
    const listed = await ctx.app.inject({ method: 'GET', url: `/decks/${deck._id}/cards?limit=10`, headers });
    expect(pick(listed.json<{ cards: Card[] }>().cards)).toEqual(expected);
    const reviewed = await reviewCard(ctx.app, headers, created.cards[1]?._id ?? '', 'pass');
    expect(pick([reviewed])).toEqual([expected[1]]);
  });
});

describe('POST /save-cards with notes', () => {
  it('saves { question, answer } items and { type, fields, source? } items together, all or nothing', async () => {
    const { headers, user, deck } = await learnerWithDeck(ctx.app);
    const response = await postSaveCards(ctx.app, headers, {
      deck_id: deck._id,
      cards: [
        { question: 'Q', answer: 'A' },
        { type: 'cloze', fields: { text: clozeText }, source: { quote: 'Mitochondria make ATP.' } },
        { type: 'reversed', fields: { front: 'F', back: 'B' } },
      ],
    });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json<{ saved: number; cards: Card[] }>();
    expect(body.saved).toBe(5);
    expect(body.cards.map((card) => [card.card_type, card.ord, card.question])).toEqual([
      ['basic', 0, 'Q'],
      ['cloze', 0, '[...] make ATP.'],
      ['cloze', 1, 'Mitochondria make [molecule].'],
      ['basic', 0, 'F'],
      ['reverse', 1, 'B'],
    ]);
    const rows = await rowsOf(user._id);
    expect(rows.notes.map((note) => note.type).sort()).toEqual(['basic', 'cloze', 'reversed']);
    expect(rows.cards).toHaveLength(5);
  });

  it.each([
    [{ type: 'cloze', fields: { text: 'no cloze' } }, 'cards.1.fields', messages.clozeMissing],
    [
      { type: 'cloze', fields: { text: '{{c1::x' } },
      'cards.1.fields',
      'A cloze deletion {{c1::… is not closed: end it with }}.',
    ],
    [{ type: 'nope', fields: {} }, 'cards.1.type', messages.noteTypeUnknown],
    [{ question: '', answer: 'a' }, 'cards.1.question', messages.cardSidesEmpty],
    [{ answer: 'a' }, 'cards.1.question', messages.cardSidesEmpty],
  ])('refuses the batch when an item is broken: %j', async (item, field, detail) => {
    const { headers, user, deck } = await learnerWithDeck(ctx.app);
    const response = await postSaveCards(ctx.app, headers, {
      deck_id: deck._id,
      cards: [{ question: 'Q', answer: 'A' }, item],
    });
    expectValidationError(response, field, detail);
    expect(await rowsOf(user._id)).toEqual({ notes: [], cards: [] });
  });

  it('the cap counts the cards the notes make', async () => {
    const { headers, user, deck } = await learnerWithDeck(ctx.app, 10);
    const response = await postSaveCards(ctx.app, headers, {
      deck_id: deck._id,
      cards: [
        { type: 'reversed', fields: { front: 'F', back: 'B' } },
        { question: 'Q', answer: 'A' },
      ],
    });
    expectError(response, 422, 'too_many_cards', fillMessage(serverMessages.tooManyCardsInAccount, { max: 12 }));
    expect((await rowsOf(user._id)).cards).toHaveLength(10);
    const other = await createDeck(ctx.app, headers, 'Other');
    expect(other._id).toBeTruthy();
  });
});

describe('a shared deck of notes', () => {
  it('is imported with its notes and their types: a cloze note stays one note of two cloze cards', async () => {
    const owner = await learnerWithDeck(ctx.app);
    const created = await createNote(owner.headers, {
      deck_id: owner.deck._id,
      type: 'cloze',
      fields: { text: clozeText, extra: 'e' },
    });
    const share = await ctx.app.inject({
      method: 'POST',
      url: `/decks/${owner.deck._id}/share`,
      headers: owner.headers,
    });
    const { share_code } = share.json<{ share_code: string }>();
    const importer = await signUpAndLogIn(ctx.app);
    const imported = await ctx.app.inject({
      method: 'POST',
      url: `/shared/${share_code}/import`,
      headers: importer.headers,
    });
    expect(imported.statusCode, imported.body).toBe(201);
    const { notes, cards } = await rowsOf(importer.user._id);
    expect(notes).toEqual([
      {
        id: expect.not.stringMatching(created.note._id),
        type: 'cloze',
        fields: JSON.stringify({ text: clozeText, extra: 'e' }),
      },
    ]);
    expect(cards.map((card) => [card.note_id, card.card_type, card.ord, card.question])).toEqual(
      created.cards.map((card) => [notes[0]?.id, 'cloze', card.ord, card.question]),
    );
  });
});
