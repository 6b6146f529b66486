import type { Card, CardPage, CardSearchResponse } from '@flashcards/shared/api-types';
import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../../../test/support/api-error';
import { type AuthHeaders, signUpAndLogIn } from '../../../test/support/factories';
import { createDeck, importShare, learnerWithDeck, saveCards, shareDeck } from '../../../test/support/study';
import { useTestApp } from '../../../test/support/test-app';
import { encodeDeckCursor, encodeSearchCursor } from './cursors';

const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });

const get = (url: string, headers?: AuthHeaders) =>
  ctx.app.inject({ method: 'GET', url, ...(headers ? { headers } : {}) });

async function page(headers: AuthHeaders, deckId: string, query: string): Promise<CardPage> {
  const response = await get(`/decks/${deckId}/cards?${query}`, headers);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<CardPage>();
}

async function search(headers: AuthHeaders, query: Record<string, string>): Promise<CardSearchResponse> {
  const response = await get(`/cards/search?${new URLSearchParams(query)}`, headers);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<CardSearchResponse>();
}

const questions = (cards: { question: string }[]) => cards.map((card) => card.question);

describe('GET /decks/{id}/cards with limit and cursor', () => {
  it('without limit answers a Card[] as before (the first page; see heavy-routes.test.ts for its cap)', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    await saveCards(ctx.app, headers, deck._id, 3);
    const response = await get(`/decks/${deck._id}/cards`, headers);
    expect(response.statusCode).toBe(200);
    const body = response.json<Card[]>();
    expect(Array.isArray(body)).toBe(true);
    expect(body).toHaveLength(3);
  });

  it('pages in creation order, next_cursor null on the last page, and never repeats or skips while cards are added', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    for (let index = 1; index <= 5; index++) {
      await saveCards(ctx.app, headers, deck._id, [{ question: `Q${index}`, answer: `A${index}` }]);
      ctx.clock.advance(1000);
    }

    const first = await page(headers, deck._id, 'limit=2');
    expect(Object.keys(first).sort()).toEqual(['cards', 'next_cursor']);
    expect(questions(first.cards)).toEqual(['Q1', 'Q2']);
    expect(first.next_cursor).toEqual(expect.any(String));

    // Cards added and one deleted between pages: the next pages go on after Q2 and end with the new cards.
    await saveCards(ctx.app, headers, deck._id, [{ question: 'Q6', answer: 'A6' }]);
    ctx.clock.advance(1000);
    const q1 = first.cards[0] as Card;
    expect((await ctx.app.inject({ method: 'DELETE', url: `/cards/${q1._id}`, headers })).statusCode).toBe(204);

    const second = await page(headers, deck._id, `limit=2&cursor=${first.next_cursor}`);
    expect(questions(second.cards)).toEqual(['Q3', 'Q4']);
    await saveCards(ctx.app, headers, deck._id, [{ question: 'Q7', answer: 'A7' }]);
    const third = await page(headers, deck._id, `limit=2&cursor=${second.next_cursor}`);
    expect(questions(third.cards)).toEqual(['Q5', 'Q6']);
    const last = await page(headers, deck._id, `limit=2&cursor=${third.next_cursor}`);
    expect(questions(last.cards)).toEqual(['Q7']);
    expect(last.next_cursor).toBeNull();

    // An exact fit: the page that ends on the last card says so.
    const all = await page(headers, deck._id, 'limit=500');
    expect(questions(all.cards)).toEqual(['Q2', 'Q3', 'Q4', 'Q5', 'Q6', 'Q7']);
    expect(all.next_cursor).toBeNull();
    const six = await page(headers, deck._id, 'limit=6');
    expect(six.next_cursor).toBeNull();
  });

  it('keeps cards saved in the same instant in one order across pages (ties broken by id)', async () => {
    const { headers, deck, cards: saved } = await learnerWithDeck(ctx.app, 7);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const next: CardPage = await page(headers, deck._id, `limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...next.cards.map((card) => card._id));
      cursor = next.next_cursor;
    } while (cursor);
    expect(seen).toEqual(saved.map((card) => card._id).sort());
  });

  it('rejects a bad limit or cursor with 422 and the exact text', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    await saveCards(ctx.app, headers, deck._id, 2);
    for (const limit of ['0', '501', 'abc', '1.5', '-1', '', '1e2', '%20', '99999999999']) {
      expectValidationError(
        await get(`/decks/${deck._id}/cards?limit=${limit}`, headers),
        'limit',
        serverMessages.cardsPageLimitInvalid,
      );
    }
    expectValidationError(
      await get(`/decks/${deck._id}/cards?limit=1&limit=2`, headers),
      'limit',
      serverMessages.cardsPageLimitInvalid,
    );
    const other = encodeDeckCursor({ created_at: 1, id: 'zz'.repeat(12) });
    for (const cursor of ['garbage', '', 'YWJj', other, '!!!', 'a'.repeat(201), encodeSearchCursor(3)]) {
      expectValidationError(
        await get(`/decks/${deck._id}/cards?limit=1&cursor=${encodeURIComponent(cursor)}`, headers),
        'cursor',
        serverMessages.cursorInvalid,
      );
    }
    const first = await page(headers, deck._id, 'limit=1');
    expectValidationError(
      await get(`/decks/${deck._id}/cards?cursor=${first.next_cursor}`, headers),
      'cursor',
      serverMessages.cursorWithoutLimit,
    );
  });

  it('answers 404 for a deck that is missing, malformed or someone else, and 401 without a token', async () => {
    const owner = await signUpAndLogIn(ctx.app);
    const deck = await createDeck(ctx.app, owner.headers);
    await saveCards(ctx.app, owner.headers, deck._id, 2);
    const stranger = await signUpAndLogIn(ctx.app);
    for (const id of [deck._id, 'not-an-id', 'f'.repeat(24)]) {
      const response = await get(`/decks/${id}/cards?limit=10`, stranger.headers);
      expectError(response, 404, 'deck_not_found', serverMessages.deckNotFound);
    }
    const response = await get(`/decks/${deck._id}/cards?limit=10`);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'not_authenticated' });
  });
});

describe('GET /cards/search', () => {
  const biology = [
    { question: 'What does the mitochondria do?', answer: 'It makes ATP: the powerhouse of the cell' },
    { question: 'What is a ribosome?', answer: 'The cell part that makes proteins' },
    { question: 'What is photosynthesis?', answer: 'Light energy becomes chemical energy in chloroplasts' },
  ];

  it('finds every word, each also as a prefix, in question or answer, with the deck name', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const deck = await createDeck(ctx.app, headers, 'Biology 101');
    await saveCards(ctx.app, headers, deck._id, biology);

    const mito = await search(headers, { q: 'mito' });
    expect(questions(mito.cards)).toEqual(['What does the mitochondria do?']);
    expect(mito.next_cursor).toBeNull();
    const hit = mito.cards[0];
    expect(Object.keys(hit ?? {}).sort()).toEqual([
      '_id',
      'answer',
      'card_type',
      'created_at',
      'deck_id',
      'deck_name',
      'due_date',
      'images',
      'lapses',
      'note_id',
      'ord',
      'question',
      'reps',
      'source',
      'status',
    ]);
    expect(hit).toMatchObject({ deck_id: deck._id, deck_name: 'Biology 101', status: 'new', reps: 0 });
    expect(hit).toMatchObject({ images: [], source: null });
    expect(hit).toMatchObject({ note_id: hit?._id, card_type: 'basic', ord: 0 });

    // Every word must be there: in the question, the answer, or across both.
    expect(questions((await search(headers, { q: 'cell makes' })).cards).sort()).toEqual([
      'What does the mitochondria do?',
      'What is a ribosome?',
    ]);
    expect(questions((await search(headers, { q: 'ribo PROT' })).cards)).toEqual(['What is a ribosome?']);
    expect((await search(headers, { q: 'mitochondria proteins' })).cards).toEqual([]);
    // Case and punctuation do not matter; a word inside another word does not match (prefixes only).
    expect(questions((await search(headers, { q: '  ATP!  ' })).cards)).toEqual(['What does the mitochondria do?']);
    expect((await search(headers, { q: 'ondria' })).cards).toEqual([]);
  });

  it('puts the best match first', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    await saveCards(ctx.app, headers, deck._id, [
      {
        question: 'Name three organelles of an animal cell',
        answer: 'The nucleus, the endoplasmic reticulum, the golgi apparatus and also the enzyme-rich lysosome',
      },
      { question: 'What is the nucleus of a cell?', answer: 'The nucleus holds the genome' },
      { question: 'Where is DNA?', answer: 'In the nucleus, and some in mitochondria, of every eukaryotic cell' },
    ]);
    const found = await search(headers, { q: 'nucleus' });
    expect(found.cards).toHaveLength(3);
    expect(found.cards[0]?.question).toBe('What is the nucleus of a cell?');
  });

  it('never finds another user’s cards, and filters by deck_id', async () => {
    const owner = await signUpAndLogIn(ctx.app);
    const mine = await createDeck(ctx.app, owner.headers, 'Mine');
    const other = await createDeck(ctx.app, owner.headers, 'Other');
    await saveCards(ctx.app, owner.headers, mine._id, [{ question: 'zebrafish genetics', answer: 'model organism' }]);
    await saveCards(ctx.app, owner.headers, other._id, [{ question: 'zebrafish habitat', answer: 'rivers' }]);
    const stranger = await signUpAndLogIn(ctx.app);
    const theirs = await createDeck(ctx.app, stranger.headers, 'Theirs');
    await saveCards(ctx.app, stranger.headers, theirs._id, [{ question: 'zebrafish fins', answer: 'regrow' }]);

    expect(questions((await search(owner.headers, { q: 'zebra' })).cards).sort()).toEqual([
      'zebrafish genetics',
      'zebrafish habitat',
    ]);
    const inDeck = await search(owner.headers, { q: 'zebra', deck_id: other._id });
    expect(inDeck.cards.map((card) => [card.question, card.deck_name])).toEqual([['zebrafish habitat', 'Other']]);
    expect(questions((await search(stranger.headers, { q: 'zebrafish' })).cards)).toEqual(['zebrafish fins']);
    for (const deckId of [mine._id, 'nope', '0'.repeat(24)]) {
      const response = await get(`/cards/search?q=zebra&deck_id=${deckId}`, stranger.headers);
      expectError(response, 404, 'deck_not_found', serverMessages.deckNotFound);
    }
  });

  it('follows every card write: edits, deletions, a deleted deck, a shared-deck import', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    const deck = await createDeck(ctx.app, headers, 'Temp');
    const [card] = await saveCards(ctx.app, headers, deck._id, [{ question: 'quokka island', answer: 'Rottnest' }]);
    expect((await search(headers, { q: 'quokka' })).cards).toHaveLength(1);

    const edit = await ctx.app.inject({
      method: 'PUT',
      url: `/cards/${card?._id}`,
      headers,
      payload: { question: 'wombat burrow', answer: 'cube-shaped droppings' },
    });
    expect(edit.statusCode).toBe(200);
    expect((await search(headers, { q: 'quokka' })).cards).toEqual([]);
    expect((await search(headers, { q: 'rottnest' })).cards).toEqual([]);
    expect(questions((await search(headers, { q: 'cube shaped' })).cards)).toEqual(['wombat burrow']);

    expect((await ctx.app.inject({ method: 'DELETE', url: `/cards/${card?._id}`, headers })).statusCode).toBe(204);
    expect((await search(headers, { q: 'wombat' })).cards).toEqual([]);

    await saveCards(ctx.app, headers, deck._id, [{ question: 'platypus venom', answer: 'spurs' }]);
    const shareCode = await shareDeck(ctx.app, headers, deck._id);
    const importer = await signUpAndLogIn(ctx.app);
    const imported = await importShare(ctx.app, importer.headers, shareCode);
    expect(imported.statusCode).toBe(201);
    expect(questions((await search(importer.headers, { q: 'platy' })).cards)).toEqual(['platypus venom']);

    expect((await ctx.app.inject({ method: 'DELETE', url: `/decks/${deck._id}`, headers })).statusCode).toBe(204);
    expect((await search(headers, { q: 'platypus' })).cards).toEqual([]);
    expect((await search(importer.headers, { q: 'platypus' })).cards).toHaveLength(1);
  });

  it('pages with limit (default 50) and cursor without repeating a card', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    await saveCards(
      ctx.app,
      headers,
      deck._id,
      Array.from({ length: 60 }, (_, index) => ({ question: `kiwi fact ${index}`, answer: `fact number ${index}` })),
    );
    const first = await search(headers, { q: 'kiwi' });
    expect(first.cards).toHaveLength(50);
    expect(first.next_cursor).toEqual(expect.any(String));
    const rest = await search(headers, { q: 'kiwi', cursor: first.next_cursor ?? '' });
    expect(rest.cards).toHaveLength(10);
    expect(rest.next_cursor).toBeNull();
    const ids = [...first.cards, ...rest.cards].map((card) => card._id);
    expect(new Set(ids).size).toBe(60);

    const small = await search(headers, { q: 'kiwi', limit: '7' });
    expect(small.cards).toHaveLength(7);
    const next = await search(headers, { q: 'kiwi', limit: '7', cursor: small.next_cursor ?? '' });
    expect(next.cards.map((card) => card._id)).toEqual(ids.slice(7, 14));
  });

  it('treats search syntax as plain words and finds nothing for text without words', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    await saveCards(ctx.app, headers, deck._id, [{ question: 'NEAR the OR gate', answer: 'logic AND circuits' }]);
    for (const q of ['"', '*', 'NEAR(', 'or', '-near', "'", ':*', '&|!', 'question:near', '^near', 'a"b', '(', '\\']) {
      const response = await get(`/cards/search?q=${encodeURIComponent(q)}`, headers);
      expect(response.statusCode, `${q}: ${response.body}`).toBe(200);
    }
    expect(questions((await search(headers, { q: 'OR gate' })).cards)).toEqual(['NEAR the OR gate']);
    expect(questions((await search(headers, { q: 'near(' })).cards)).toEqual(['NEAR the OR gate']);
    expect(questions((await search(headers, { q: '"and" -circ*' })).cards)).toEqual(['NEAR the OR gate']);
    expect(await search(headers, { q: '?!.,' })).toEqual({ cards: [], next_cursor: null });
  });

  it('rejects a bad q, limit or cursor with 422 and the exact text, and answers 401 without a token', async () => {
    const { headers } = await signUpAndLogIn(ctx.app);
    for (const query of ['', 'q=', 'q=%20%20', `q=${'a'.repeat(201)}`, 'q=a&q=b']) {
      expectValidationError(await get(`/cards/search?${query}`, headers), 'q', serverMessages.searchQueryInvalid);
    }
    expect((await get(`/cards/search?q=${'a'.repeat(200)}`, headers)).statusCode).toBe(200);
    for (const limit of ['0', '101', 'x', '2.5', '-3', '']) {
      expectValidationError(
        await get(`/cards/search?q=cell&limit=${limit}`, headers),
        'limit',
        serverMessages.searchLimitInvalid,
      );
    }
    for (const cursor of [
      'nope',
      encodeSearchCursor(0),
      encodeSearchCursor(10_001),
      encodeDeckCursor({ created_at: 1, id: 'a'.repeat(24) }),
    ]) {
      const response = await get(`/cards/search?q=cell&cursor=${encodeURIComponent(cursor)}`, headers);
      expectValidationError(response, 'cursor', serverMessages.cursorInvalid);
    }
    const response = await get('/cards/search?q=cell');
    expect(response.statusCode).toBe(401);
  });
});
