import type { Card, DeckSummary } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../../../test/support/api-error';
import { type AuthHeaders, signUpAndLogIn } from '../../../test/support/factories';
import { rowById } from '../../../test/support/rows';
import {
  createDeck,
  DAY,
  dueCards,
  learnerWithDeck,
  MINUTE,
  putDeckSettings,
  reviewCard,
  saveCards,
} from '../../../test/support/study';
import { useTestApp } from '../../../test/support/test-app';

// GET /decks' `counts` and PUT /decks/{id}/settings' `name` (api-contract.md, "The first week").

const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });

async function listDecks(headers: AuthHeaders): Promise<DeckSummary[]> {
  const response = await ctx.app.inject({ method: 'GET', url: '/decks', headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<DeckSummary[]>();
}

async function countsOf(headers: AuthHeaders, deckId: string) {
  const deck = (await listDecks(headers)).find((item) => item._id === deckId);
  if (!deck) throw new Error('deck not listed');
  return deck.counts;
}

/** The counts a session of the deck shows now, from GET /cards/due itself. */
async function queueCounts(headers: AuthHeaders, deckId: string) {
  const queue = await dueCards(ctx.app, headers, deckId);
  const count = (statuses: Card['status'][]) => queue.filter((card) => statuses.includes(card.status)).length;
  return { new: count(['new']), learning: count(['learning', 'relearning']), due: count(['due']) };
}

/** Passes a card until it leaves learning, then answers it as a long-term card. */
async function graduate(headers: AuthHeaders, card: Card): Promise<Card> {
  let current = card;
  for (let step = 0; step < 6; step++) {
    current = await reviewCard(ctx.app, headers, current._id, 'pass');
    if (current.status === 'due') return current;
    ctx.clock.set(current.due_date);
  }
  throw new Error('the card never graduated');
}

describe('GET /decks counts', () => {
  it('counts what a session of each deck would show, through answers, learning steps and the day limit', async () => {
    ctx.clock.set('2026-12-02T10:00:00.000Z');
    const { headers } = await signUpAndLogIn(ctx.app);
    const big = await createDeck(ctx.app, headers, 'Big');
    const small = await createDeck(ctx.app, headers, 'Small');
    expect((await putDeckSettings(ctx.app, headers, small._id, { daily_new_card_limit: 3 })).statusCode).toBe(200);
    const bigCards = await saveCards(ctx.app, headers, big._id, 30);
    await saveCards(ctx.app, headers, small._id, 2);

    // Nothing studied: the day's limit of 20 new cards of 30; the small deck holds fewer than its limit.
    const fresh = await listDecks(headers);
    expect(fresh.map((deck) => [deck.name, deck.counts])).toEqual([
      ['Big', { new: 20, learning: 0, due: 0 }],
      ['Small', { new: 2, learning: 0, due: 0 }],
    ]);
    expect(await countsOf(headers, big._id)).toEqual(await queueCounts(headers, big._id));

    // One card failed, one passed: both are in learning, due in a minute and later; 18 new left today.
    const [failed, passed, third] = bigCards;
    if (!failed || !passed || !third) throw new Error('cards missing');
    const afterFail = await reviewCard(ctx.app, headers, failed._id, 'fail');
    const afterPass = await reviewCard(ctx.app, headers, passed._id, 'pass');
    expect(await countsOf(headers, big._id)).toEqual({ new: 18, learning: 0, due: 0 });
    ctx.clock.set(afterFail.due_date);
    expect(await countsOf(headers, big._id)).toEqual({ new: 18, learning: 1, due: 0 });
    expect(await countsOf(headers, big._id)).toEqual(await queueCounts(headers, big._id));
    ctx.clock.set(afterPass.due_date);
    expect(await countsOf(headers, big._id)).toEqual({ new: 18, learning: 2, due: 0 });
    // The other deck is untouched.
    expect(await countsOf(headers, small._id)).toEqual({ new: 2, learning: 0, due: 0 });

    // A third card leaves learning: a long-term card, due on its day.
    const graduated = await graduate(headers, third);
    const beforeDue = await countsOf(headers, big._id);
    expect(beforeDue.due).toBe(0);
    ctx.clock.set(graduated.due_date);
    const onItsDay = await countsOf(headers, big._id);
    expect(onItsDay.due).toBe(1);
    expect(onItsDay).toEqual(await queueCounts(headers, big._id));
    // A new study day: the limit starts over (27 new cards left, 20 of them today).
    expect(onItsDay.new).toBe(20);
  });

  it('stops at the limit: zero new cards once the day has introduced them all, again on the next day', async () => {
    ctx.clock.set('2026-12-05T10:00:00.000Z');
    const { headers, deck } = await learnerWithDeck(ctx.app);
    expect((await putDeckSettings(ctx.app, headers, deck._id, { daily_new_card_limit: 2 })).statusCode).toBe(200);
    const cards = await saveCards(ctx.app, headers, deck._id, 5);
    for (const card of cards.slice(0, 2)) await reviewCard(ctx.app, headers, card._id, 'pass');
    expect((await countsOf(headers, deck._id)).new).toBe(0);
    // Lowering the limit below what was introduced never counts negative.
    expect((await putDeckSettings(ctx.app, headers, deck._id, { daily_new_card_limit: 1 })).statusCode).toBe(200);
    expect((await countsOf(headers, deck._id)).new).toBe(0);
    // An undone first answer gives its place back.
    const undo = await ctx.app.inject({ method: 'POST', url: `/cards/${cards[1]?._id}/undo-review`, headers });
    expect(undo.statusCode).toBe(200);
    expect((await countsOf(headers, deck._id)).new).toBe(0);
    expect((await putDeckSettings(ctx.app, headers, deck._id, { daily_new_card_limit: 2 })).statusCode).toBe(200);
    expect((await countsOf(headers, deck._id)).new).toBe(1);
    // The next study day (04:00 UTC for a learner in the default zone): the limit again.
    ctx.clock.set('2026-12-06T04:00:00.000Z');
    expect((await countsOf(headers, deck._id)).new).toBe(2);
    ctx.clock.advance(DAY);
    expect(await countsOf(headers, deck._id)).toEqual(await queueCounts(headers, deck._id));
  });

  it("starts the day's limit over at 04:00 in the learner's own time zone", async () => {
    // 2026-12-07 08:30 UTC is 03:30 in New York: still the study day of the 6th there.
    ctx.clock.set('2026-12-07T08:30:00.000Z');
    const { headers, deck } = await learnerWithDeck(ctx.app);
    const zone = await ctx.app.inject({
      method: 'PUT',
      url: '/users/me/settings',
      headers,
      payload: { time_zone: 'America/New_York' },
    });
    expect(zone.statusCode).toBe(200);
    expect((await putDeckSettings(ctx.app, headers, deck._id, { daily_new_card_limit: 3 })).statusCode).toBe(200);
    const cards = await saveCards(ctx.app, headers, deck._id, 10);
    for (const card of cards.slice(0, 3)) await reviewCard(ctx.app, headers, card._id, 'pass');
    expect((await countsOf(headers, deck._id)).new).toBe(0);
    // 04:00 UTC would have passed long ago; 04:00 in New York is 09:00 UTC.
    ctx.clock.set('2026-12-07T08:59:59.000Z');
    expect((await countsOf(headers, deck._id)).new).toBe(0);
    ctx.clock.set('2026-12-07T09:00:00.000Z');
    expect((await countsOf(headers, deck._id)).new).toBe(3);
    expect((await countsOf(headers, deck._id)).new).toBe((await queueCounts(headers, deck._id)).new);
  });

  it('counts only the caller’s own cards and decks', async () => {
    const mine = await learnerWithDeck(ctx.app, 3);
    const theirs = await learnerWithDeck(ctx.app, 7);
    for (const card of theirs.cards) await reviewCard(ctx.app, theirs.headers, card._id, 'fail');
    ctx.clock.advance(10 * MINUTE);
    const decks = await listDecks(mine.headers);
    expect(decks).toHaveLength(1);
    expect(decks[0]?.counts).toEqual({ new: 3, learning: 0, due: 0 });
    expect((await listDecks(theirs.headers))[0]?.counts).toEqual({ new: 0, learning: 7, due: 0 });
  });
});

describe('PUT /decks/{id}/settings name', () => {
  it('renames the deck (trimmed), alone or with the other settings, and answers the settings', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    const response = await putDeckSettings(ctx.app, headers, deck._id, { name: '  Cell biology  ' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      daily_new_card_limit: 20,
      desired_retention: 0.9,
      exam_date: null,
      tts: { question_lang: null, answer_lang: null, auto: false },
    });
    expect((await rowById(ctx.database.db, 'decks', deck._id)).name).toBe('Cell biology');
    expect((await listDecks(headers))[0]?.name).toBe('Cell biology');

    const both = await putDeckSettings(ctx.app, headers, deck._id, { name: 'Genetics', daily_new_card_limit: 7 });
    expect(both.json()).toEqual({
      daily_new_card_limit: 7,
      desired_retention: 0.9,
      exam_date: null,
      tts: { question_lang: null, answer_lang: null, auto: false },
    });
    expect(await rowById(ctx.database.db, 'decks', deck._id)).toMatchObject({
      name: 'Genetics',
      daily_new_card_limit: 7,
    });
  });

  it('allows two decks of the same name, as creating does', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    const other = await createDeck(ctx.app, headers, 'Chemistry');
    const response = await putDeckSettings(ctx.app, headers, deck._id, { name: 'Chemistry' });
    expect(response.statusCode).toBe(200);
    expect((await listDecks(headers)).map((item) => item.name)).toEqual(['Chemistry', 'Chemistry']);
    expect((await rowById(ctx.database.db, 'decks', other._id)).name).toBe('Chemistry');
  });

  it.each([
    ['an empty name', '', messages.deckNameEmpty],
    ['a blank name', ' \t\n ', messages.deckNameEmpty],
    ['null', null, messages.deckNameEmpty],
    ['a number', 42, messages.deckNameEmpty],
    ['an object', { $ne: '' }, messages.deckNameEmpty],
    ['a name over 200 characters', 'n'.repeat(201), serverMessages.deckNameTooLong],
    ['a megabyte', 'n'.repeat(1_000_000), serverMessages.deckNameTooLong],
  ])('refuses %s with 422 and keeps the name and the other settings', async (_label, name, detail) => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    const response = await putDeckSettings(ctx.app, headers, deck._id, { name, daily_new_card_limit: 3 });
    expectValidationError(response, 'name', detail);
    expect(await rowById(ctx.database.db, 'decks', deck._id)).toMatchObject({
      name: 'Biology',
      daily_new_card_limit: 20,
    });
  });

  it('refuses a name with a NUL character with 422', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    const response = await putDeckSettings(ctx.app, headers, deck._id, { name: 'Bio\u0000logy' });
    expectError(response, 422, 'validation_failed', serverMessages.nulCharacter);
    expect((await rowById(ctx.database.db, 'decks', deck._id)).name).toBe('Biology');
  });

  it("answers 404 for someone else's deck and leaves it as it was", async () => {
    const owner = await learnerWithDeck(ctx.app);
    const intruder = await signUpAndLogIn(ctx.app);
    const response = await putDeckSettings(ctx.app, intruder.headers, owner.deck._id, { name: 'Mine now' });
    expectError(response, 404, 'deck_not_found', serverMessages.deckNotFound);
    expect((await rowById(ctx.database.db, 'decks', owner.deck._id)).name).toBe('Biology');
  });
});
