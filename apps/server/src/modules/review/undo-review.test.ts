import type { Card, DeckStats } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { expectError } from '../../../test/support/api-error';
import { signUpAndLogIn } from '../../../test/support/factories';
import {
  createDeck,
  dueCards,
  fixedRandom,
  learnerWithCard,
  learnerWithDeck,
  putDeckSettings,
  reviewCard,
  saveCards,
} from '../../../test/support/study';
import { useTestApp } from '../../../test/support/test-app';

type Headers = { authorization: string };

const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000' }, random: fixedRandom() });

const MINUTE = 60_000;

const undo = (headers: Headers | undefined, cardId: string) =>
  ctx.app.inject({ method: 'POST', url: `/cards/${cardId}/undo-review`, ...(headers ? { headers } : {}) });

const cardRow = (id: string) =>
  ctx.database.db
    .selectFrom('cards')
    .select([
      'state',
      'due',
      'stability',
      'difficulty',
      'scheduled_days',
      'learning_steps',
      'reps',
      'lapses',
      'last_review',
      'first_reviewed_at',
    ])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

const logsOf = (cardId: string) =>
  ctx.database.db
    .selectFrom('review_logs')
    .select(['id', 'rating', 'state_before', 'state_after', 'undone_at'])
    .where('card_id', '=', cardId)
    .orderBy('reviewed_at')
    .orderBy('id')
    .execute();

async function stats(headers: Headers, deckId: string): Promise<DeckStats> {
  const response = await ctx.app.inject({ method: 'GET', url: `/decks/${deckId}/stats`, headers });
  expect(response.statusCode).toBe(200);
  return response.json<DeckStats>();
}

async function undoOk(headers: Headers, cardId: string): Promise<Card> {
  const response = await undo(headers, cardId);
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json<{ card: Card }>();
  expect(Object.keys(body)).toEqual(['card']);
  return body.card;
}

/** Passes the card (a minute or more apart) until it is in long-term review. */
async function graduate(headers: Headers, cardId: string): Promise<Card> {
  let card: Card | undefined;
  for (let step = 0; step < 5 && card?.status !== 'due'; step++) {
    card = await reviewCard(ctx.app, headers, cardId, 'pass');
    ctx.clock.advance(15 * MINUTE);
  }
  expect(card?.status).toBe('due');
  return card as Card;
}

function expect409(response: { statusCode: number; json(): unknown }) {
  expectError(response, 409, 'nothing_to_undo', serverMessages.nothingToUndo);
}

describe('POST /cards/{id}/undo-review', () => {
  it('takes back a pass on a new card: the card, the counters, the daily limit and today’s count as before', async () => {
    const { headers, deck } = await learnerWithDeck(ctx.app);
    await putDeckSettings(ctx.app, headers, deck._id, { daily_new_card_limit: 1 });
    const [first, second] = await saveCards(ctx.app, headers, deck._id, 2);
    const id = first?._id as string;
    const before = await cardRow(id);
    const statsBefore = await stats(headers, deck._id);
    expect((await dueCards(ctx.app, headers, deck._id)).map((card) => card._id)).toEqual([id]);

    ctx.clock.advance(MINUTE);
    const reviewed = await reviewCard(ctx.app, headers, id, 'pass');
    expect(reviewed.status).toBe('learning');
    expect((await stats(headers, deck._id)).cards_reviewed_today).toBe(1);
    // The deck's one new card for today is used: only the learning card (once due) is left.
    expect((await dueCards(ctx.app, headers, deck._id)).map((card) => card._id)).not.toContain(second?._id);

    ctx.clock.advance(MINUTE);
    const restored = await undoOk(headers, id);
    // The review path's answers leave `images` out (one query fewer per answer); the saved card had them.
    const { images: _images, ...saved } = first ?? {};
    expect(restored).toEqual({ ...saved, due_date: first?.due_date });
    expect(await cardRow(id)).toEqual(before);
    expect(await stats(headers, deck._id)).toEqual(statsBefore);
    // The answer is still in the log, marked undone; no row was removed or added.
    const logs = await logsOf(id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ rating: 3, state_before: 0, undone_at: ctx.clock.now() });
    // The daily new-card limit no longer counts it: the card is offered again.
    expect((await dueCards(ctx.app, headers, deck._id)).map((card) => card._id)).toEqual([id]);

    // Undone once: a second undo of the same card has nothing to take back.
    expect409(await undo(headers, id));
    expect(await cardRow(id)).toEqual(before);
  });

  it('takes back a fail on a long-term card (relearning) and a pass on a relearning card', async () => {
    const { headers, deck, card } = await learnerWithCard(ctx.app);
    const id = card._id;
    const graduated = await graduate(headers, id);
    ctx.clock.advance(3 * 86_400_000);

    const asReview = await cardRow(id);
    const lapsed = await reviewCard(ctx.app, headers, id, 'fail');
    expect(lapsed).toMatchObject({ status: 'relearning', lapses: 1 });
    const statsLapsed = await stats(headers, deck._id);
    expect(statsLapsed.learning_cards).toBe(1);
    expect(await undoOk(headers, id)).toEqual(graduated);
    expect(await cardRow(id)).toEqual(asReview);
    expect(await stats(headers, deck._id)).toMatchObject({
      learning_cards: 0,
      new_cards: 0,
      total_cards: 1,
      due_cards: 1,
    });

    // Fail again for real, then pass the relearning card, and undo that pass.
    const relearning = await reviewCard(ctx.app, headers, id, 'fail');
    const asRelearning = await cardRow(id);
    ctx.clock.advance(15 * MINUTE);
    const back = await reviewCard(ctx.app, headers, id, 'pass');
    expect(back.status).toBe('due');
    expect(await undoOk(headers, id)).toEqual(relearning);
    expect(await cardRow(id)).toEqual(asRelearning);
    expect((await stats(headers, deck._id)).learning_cards).toBe(1);

    // The card is studied on from the restored state: the next answer counts as usual.
    const again = await reviewCard(ctx.app, headers, id, 'pass');
    expect(again).toMatchObject({ status: 'due', reps: back.reps, lapses: 1 });
    const logs = await logsOf(id);
    expect(logs.filter((log) => log.undone_at !== null)).toHaveLength(2);
    expect(logs.at(-1)).toMatchObject({ state_before: 3, state_after: 2, undone_at: null });
  });

  it('takes back a fail on a learning card', async () => {
    const { headers, card } = await learnerWithCard(ctx.app);
    const id = card._id;
    const learning = await reviewCard(ctx.app, headers, id, 'pass');
    expect(learning.status).toBe('learning');
    const asLearning = await cardRow(id);
    ctx.clock.advance(2 * MINUTE);
    await reviewCard(ctx.app, headers, id, 'fail');
    expect(await undoOk(headers, id)).toEqual(learning);
    expect(await cardRow(id)).toEqual(asLearning);
  });

  it('drops the undone answer from /stats/history (today’s reviews, passes and new cards)', async () => {
    const { headers, card } = await learnerWithCard(ctx.app);
    const id = card._id;
    const today = async () => {
      const response = await ctx.app.inject({ method: 'GET', url: '/stats/history?days=1', headers });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ days: { reviews: number; passed: number; new_cards: number }[] }>().days.at(-1);
    };
    ctx.clock.advance(MINUTE);
    await reviewCard(ctx.app, headers, id, 'pass');
    expect(await today()).toMatchObject({ reviews: 1, passed: 1, new_cards: 1 });
    await undoOk(headers, id);
    expect(await today()).toMatchObject({ reviews: 0, passed: 0, new_cards: 0 });
  });

  it('undoes answer after answer, across cards, most recent first', async () => {
    const { headers, deck, cards } = await learnerWithDeck(ctx.app, 3);
    const rows = await Promise.all(cards.map((card) => cardRow(card._id)));
    for (const [index, card] of cards.entries()) {
      ctx.clock.advance(1000);
      await reviewCard(ctx.app, headers, card._id, index === 1 ? 'fail' : 'pass');
    }
    expect((await stats(headers, deck._id)).cards_reviewed_today).toBe(3);
    for (const card of [...cards].reverse()) await undoOk(headers, card._id);
    expect(await Promise.all(cards.map((card) => cardRow(card._id)))).toEqual(rows);
    expect(await stats(headers, deck._id)).toMatchObject({
      new_cards: 3,
      learning_cards: 0,
      total_cards: 3,
      cards_reviewed_today: 0,
    });
    for (const card of cards) expect409(await undo(headers, card._id));
  });

  it('answers 409 for a card never reviewed, 404 for a missing, malformed or someone else’s card, 401 without a token', async () => {
    const owner = await signUpAndLogIn(ctx.app);
    const deck = await createDeck(ctx.app, owner.headers);
    const [card] = await saveCards(ctx.app, owner.headers, deck._id, 1);
    const id = card?._id as string;
    expect409(await undo(owner.headers, id));

    await reviewCard(ctx.app, owner.headers, id, 'pass');
    const stranger = await signUpAndLogIn(ctx.app);
    for (const cardId of [id, 'f'.repeat(24), 'not-an-id', `${id}x`]) {
      const response = await undo(stranger.headers, cardId);
      expectError(response, 404, 'card_not_found', messages.cardNotFound);
    }
    expect((await undo(undefined, id)).statusCode).toBe(401);
    // Nothing the stranger did touched the owner's review.
    expect((await logsOf(id))[0]?.undone_at).toBeNull();
    expect((await undoOk(owner.headers, id)).status).toBe('new');
  });

  it('takes back an answer once when two undos arrive together', async () => {
    const { headers, card } = await learnerWithCard(ctx.app);
    const id = card._id;
    await reviewCard(ctx.app, headers, id, 'pass');
    ctx.clock.advance(2 * MINUTE);
    await reviewCard(ctx.app, headers, id, 'pass');
    const responses = await Promise.all([undo(headers, id), undo(headers, id), undo(headers, id)]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409, 409]);
    const logs = await logsOf(id);
    expect(logs.map((log) => log.undone_at !== null)).toEqual([false, true]);
    expect((await cardRow(id)).reps).toBe(1);
  });
});
