import type { Card, DeckSummary, NoteWithCards } from '@flashcards/shared/api-types';
import { describe, expect, it } from 'vitest';
import { dueCards, learnerWithDeck, MINUTE, reviewCard } from '../../../test/support/study';
import { useTestApp } from '../../../test/support/test-app';

/**
 * Siblings (the other cards of a note) leave the queue for the rest of the study day once one is answered; the day
 * turns at 04:00 in the learner's zone (here New York, UTC−5 in November: 09:00 UTC).
 */

// Tokens last long enough for the month of study the long-term case needs.
const ctx = useTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '1000', TOKEN_TTL: '90d' } });

type Headers = { authorization: string };

async function studyIn(zone: string) {
  ctx.clock.set('2026-11-26T15:00:00.000Z');
  const learner = await learnerWithDeck(ctx.app);
  const settings = await ctx.app.inject({
    method: 'PUT',
    url: '/users/me/settings',
    headers: learner.headers,
    payload: { time_zone: zone },
  });
  expect(settings.statusCode, settings.body).toBe(200);
  return learner;
}

async function clozeNote(headers: Headers, deckId: string, text: string): Promise<NoteWithCards> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/notes',
    headers,
    payload: { deck_id: deckId, type: 'cloze', fields: { text } },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<NoteWithCards>();
}

const ids = (cards: Card[]) => cards.map((card) => card._id);

async function counts(headers: Headers) {
  const response = await ctx.app.inject({ method: 'GET', url: '/decks', headers });
  return response.json<DeckSummary[]>().map((deck) => deck.counts);
}

async function undo(headers: Headers, cardId: string) {
  const response = await ctx.app.inject({ method: 'POST', url: `/cards/${cardId}/undo-review`, headers });
  expect(response.statusCode, response.body).toBe(200);
}

describe('siblings held back after an answer', () => {
  it('hides the new siblings until 04:00 in the learner’s zone, from the queue and the deck counts', async () => {
    const { headers, deck } = await studyIn('America/New_York');
    const note = await clozeNote(headers, deck._id, '{{c1::a}} {{c2::b}} {{c3::c}}');
    const [c1, c2, c3] = note.cards.map((card) => card._id);
    const other = await clozeNote(headers, deck._id, '{{c1::x}}');
    expect(ids(await dueCards(ctx.app, headers))).toEqual([c1, c2, c3, other.cards[0]?._id]);
    expect(await counts(headers)).toEqual([{ new: 4, learning: 0, due: 0 }]);

    await reviewCard(ctx.app, headers, c1 ?? '', 'pass');
    // c1 is learning (due in 10 minutes); its siblings are held back; the other note is not.
    expect(ids(await dueCards(ctx.app, headers))).toEqual([other.cards[0]?._id]);
    expect(await counts(headers)).toEqual([{ new: 1, learning: 0, due: 0 }]);
    expect(ids(await dueCards(ctx.app, headers, deck._id))).toEqual([other.cards[0]?._id]);

    // 08:59 UTC the next morning is 03:59 in New York: still the same study day.
    ctx.clock.set('2026-11-27T08:59:59.999Z');
    expect(ids(await dueCards(ctx.app, headers))).toEqual([c1, other.cards[0]?._id]);
    // 04:00 in New York: a new study day, the siblings are back.
    ctx.clock.set('2026-11-27T09:00:00.000Z');
    expect(ids(await dueCards(ctx.app, headers))).toEqual([c1, c2, c3, other.cards[0]?._id]);
    expect(await counts(headers)).toEqual([{ new: 3, learning: 1, due: 0 }]);
  });

  it('learning siblings are not held back; long-term siblings are', async () => {
    const { headers, deck } = await studyIn('UTC');
    const note = await clozeNote(headers, deck._id, '{{c1::a}} {{c2::b}} {{c3::c}}');
    const [c1, c2, c3] = note.cards.map((card) => card._id) as [string, string, string];
    // Day 1: c1 failed (learning); c2 and c3 held back. Day 2: c2 and c3 failed too (c1 was answered the day before).
    await reviewCard(ctx.app, headers, c1, 'fail');
    ctx.clock.set('2026-11-27T05:00:00.000Z');
    await reviewCard(ctx.app, headers, c2, 'fail');
    // c3 is new and held back by c2's answer; c1 is learning and stays.
    expect(ids(await dueCards(ctx.app, headers))).toEqual([c1]);
    ctx.clock.set('2026-11-28T05:00:00.000Z');
    await reviewCard(ctx.app, headers, c3, 'fail');
    // c1 and c2 are learning: answering c3 holds neither back (c3 itself is due again in a minute).
    expect(ids(await dueCards(ctx.app, headers)).sort()).toEqual([c1, c2].sort());

    // Graduate every card to long-term review, then answer one: its long-term siblings due now leave the queue.
    for (let round = 0; round < 4; round++) {
      ctx.clock.advance(15 * MINUTE);
      for (const card of await dueCards(ctx.app, headers)) await reviewCard(ctx.app, headers, card._id, 'pass');
    }
    ctx.clock.set('2026-12-30T05:00:00.000Z');
    const due = await dueCards(ctx.app, headers);
    expect(due.map((card) => card.status)).toEqual(['due', 'due', 'due']);
    expect(await counts(headers)).toEqual([{ new: 0, learning: 0, due: 3 }]);
    await reviewCard(ctx.app, headers, due[0]?._id ?? '', 'pass');
    expect(ids(await dueCards(ctx.app, headers))).toEqual([]);
    expect(await counts(headers)).toEqual([{ new: 0, learning: 0, due: 0 }]);
  });

  it('undoing the answer releases the siblings, unless another answer of the note stands today', async () => {
    const { headers, deck } = await studyIn('UTC');
    const note = await clozeNote(headers, deck._id, '{{c1::a}} {{c2::b}} {{c3::c}}');
    const [c1, c2, c3] = note.cards.map((card) => card._id) as [string, string, string];
    await reviewCard(ctx.app, headers, c1, 'pass');
    expect(ids(await dueCards(ctx.app, headers))).toEqual([]);
    await undo(headers, c1);
    expect(ids(await dueCards(ctx.app, headers))).toEqual([c1, c2, c3]);

    // c1 answered yesterday (learning now); today c2 answered, then c1: c3 is held back by both.
    await reviewCard(ctx.app, headers, c1, 'fail');
    ctx.clock.set('2026-11-27T05:00:00.000Z');
    await reviewCard(ctx.app, headers, c2, 'fail');
    await reviewCard(ctx.app, headers, c1, 'fail');
    expect(ids(await dueCards(ctx.app, headers))).not.toContain(c3);
    await undo(headers, c1);
    // c2's answer still stands today: c3 stays held back.
    expect(ids(await dueCards(ctx.app, headers))).not.toContain(c3);
    await undo(headers, c2);
    expect(ids(await dueCards(ctx.app, headers))).toContain(c3);
  });

  it('a note of one card holds nothing back, and other notes are untouched', async () => {
    const { headers, deck } = await studyIn('UTC');
    const a = await clozeNote(headers, deck._id, '{{c1::a}}');
    const b = await clozeNote(headers, deck._id, '{{c1::b}} {{c2::c}}');
    await reviewCard(ctx.app, headers, a.cards[0]?._id ?? '', 'pass');
    expect(ids(await dueCards(ctx.app, headers))).toEqual(ids(b.cards));
    const rows = await ctx.database.db
      .selectFrom('cards')
      .select('buried_until')
      .where('note_id', 'in', [a.note._id, b.note._id])
      .execute();
    expect(rows.map((row) => row.buried_until)).toEqual([null, null, null]);
  });
});
