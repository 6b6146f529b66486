import type { CardStatus, DueCard } from '@flashcards/shared/api-types';
import { describe, expect, it } from 'vitest';
import { formatInterval, gradeLabel } from './interval-label';
import {
  answerCurrent,
  answerRecorded,
  learnAheadMs,
  nextReturn,
  pickNext,
  remainingCounts,
  type SessionQueue,
  startSession,
  studyAhead,
  undoLast,
} from './session-queue';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const T0 = Date.parse('2026-12-01T10:00:00.000Z');

/** A card as GET /cards/due gives it at `at`: a pass brings it back after `pass`, a fail after `fail`. */
function dueCard(id: string, status: CardStatus, pass: number, fail: number, at = T0): DueCard {
  return {
    _id: id,
    deck_id: 'deck',
    question: `Q ${id}`,
    answer: `A ${id}`,
    status,
    due_date: new Date(at).toISOString(),
    created_at: new Date(at).toISOString(),
    reps: 0,
    lapses: 0,
    note_id: id,
    card_type: 'basic',
    ord: 0,
    source: null,
    next_due: { pass: new Date(at + pass).toISOString(), fail: new Date(at + fail).toISOString() },
    last_review: null,
    memory: { stability: 0, difficulty: 0, scheduled_days: 0, learning_steps: 0 },
  };
}

const newCard = (id: string) => dueCard(id, 'new', 10 * MINUTE, MINUTE);
const shown = (queue: SessionQueue) => queue.current?.card._id ?? null;

describe('the review session queue', () => {
  it("shows the server's cards in order, and a failed card again once its minute is up", () => {
    let queue = startSession([newCard('a'), dueCard('r', 'due', 5 * DAY, 10 * MINUTE), newCard('b')], T0);
    expect(shown(queue)).toBe('a');
    queue = answerCurrent(queue, 'fail', 1, T0);
    expect(shown(queue)).toBe('r');
    expect(queue.learning.map((item) => [item.card._id, item.dueAt])).toEqual([['a', T0 + MINUTE]]);
    // The long-term card passes for 5 days: it does not come back in this session.
    queue = answerCurrent(queue, 'pass', 2, T0 + 2 * MINUTE);
    // The failed card is due (its minute passed): it goes before the next new card.
    expect(shown(queue)).toBe('a');
    expect(remainingCounts(queue)).toEqual({ new: 1, learning: 1, due: 0 });
  });

  it('shows a learning card early (learn-ahead) only when nothing else is left', () => {
    let queue = startSession([newCard('a'), newCard('b')], T0);
    queue = answerCurrent(queue, 'pass', 1, T0);
    // 'a' comes back in 10 minutes; 'b' is still to do, so 'b' first.
    expect(shown(queue)).toBe('b');
    queue = answerCurrent(queue, 'pass', 2, T0 + MINUTE);
    // Nothing else left: 'a', due in 9 minutes, is within the 20-minute learn-ahead and is shown now.
    expect(shown(queue)).toBe('a');
    expect(queue.learning.map((item) => item.card._id)).toEqual(['b']);
  });

  it('ends only when nothing is due within the learn-ahead, and keeps going on demand', () => {
    let queue = startSession([dueCard('a', 'new', 30 * MINUTE, 25 * MINUTE)], T0);
    queue = answerCurrent(queue, 'fail', 1, T0);
    // 25 minutes away, beyond the 20-minute learn-ahead: the session is over for now, and says when it comes back.
    expect(shown(queue)).toBeNull();
    expect(nextReturn(queue)).toBe(T0 + 25 * MINUTE);
    // Five minutes later it is within the learn-ahead.
    expect(shown(pickNext(queue, T0 + 4 * MINUTE))).toBeNull();
    expect(shown(pickNext(queue, T0 + 25 * MINUTE - learnAheadMs))).toBe('a');
    // "Keep going" shows it at once.
    expect(shown(studyAhead(queue, T0 + MINUTE))).toBe('a');
  });

  it('does not bring back a card whose answer schedules it a day or more away', () => {
    let queue = startSession([dueCard('a', 'learning', DAY, 10 * MINUTE)], T0);
    queue = answerCurrent(queue, 'pass', 1, T0);
    expect(shown(queue)).toBeNull();
    expect(nextReturn(queue)).toBeNull();
    expect(queue.tally).toEqual({ pass: 1, fail: 0 });
  });

  it("learns a returning card's new intervals from the server's reply to its answer", () => {
    let queue = startSession([newCard('a')], T0);
    queue = answerCurrent(queue, 'fail', 7, T0);
    // Back at once (learn-ahead), its intervals unknown until the server replies.
    expect(shown(queue)).toBe('a');
    expect(queue.current?.intervals).toBeNull();
    const reply = {
      ...dueCard('a', 'learning', 10 * MINUTE, MINUTE, T0 + 1_000),
      due_date: new Date(T0 + MINUTE).toISOString(),
    };
    queue = answerRecorded(queue, 7, reply, T0 + 1_000);
    expect(queue.current?.intervals).toEqual({ pass: 10 * MINUTE, fail: MINUTE });
    // A reply to another answer changes nothing.
    expect(answerRecorded(queue, 99, { ...reply, question: 'other' }, T0 + 2_000)).toEqual(queue);
  });

  it('waits for the server to say whether a card answered before its reply comes back', () => {
    let queue = startSession([newCard('a'), newCard('b')], T0);
    queue = answerCurrent(queue, 'fail', 1, T0);
    queue = answerCurrent(queue, 'fail', 2, T0);
    // 'a' is back early (nothing else left) and is answered before the reply to its first answer.
    expect(shown(queue)).toBe('a');
    queue = answerCurrent(queue, 'pass', 3, T0 + 30_000);
    expect(queue.waiting.map((item) => item.card._id)).toEqual(['a']);
    // The server made it a learning step of 10 minutes: it comes back.
    const reply = {
      ...dueCard('a', 'learning', DAY, 10 * MINUTE, T0 + 31_000),
      due_date: new Date(T0 + 31_000 + 10 * MINUTE).toISOString(),
    };
    queue = answerRecorded(queue, 3, reply, T0 + 31_000);
    expect(queue.waiting).toEqual([]);
    expect(queue.learning.map((item) => [item.card._id, item.dueAt])).toEqual([['a', T0 + 31_000 + 10 * MINUTE]]);
  });

  it("drops a card from the session when the server's reply makes it a long-term card", () => {
    let queue = startSession([dueCard('a', 'learning', 2 * HOUR, MINUTE), newCard('b')], T0);
    queue = answerCurrent(queue, 'pass', 1, T0);
    expect(queue.learning.map((item) => item.card._id)).toEqual(['a']);
    queue = answerRecorded(
      queue,
      1,
      { ...dueCard('a', 'due', 3 * DAY, 10 * MINUTE), due_date: new Date(T0 + DAY).toISOString() },
      T0 + 500,
    );
    expect(queue.learning).toEqual([]);
    expect(shown(queue)).toBe('b');
  });

  it('undo puts the latest card back on screen as it was and cancels its return', () => {
    let queue = startSession([newCard('a'), newCard('b')], T0);
    const before = queue.current;
    queue = answerCurrent(queue, 'fail', 1, T0);
    expect(shown(queue)).toBe('b');
    const { queue: undone, undone: taken } = undoLast(queue);
    expect(taken).toMatchObject({ answerId: 1, result: 'fail' });
    expect(undone.current).toEqual(before);
    expect(undone.main.map((item) => item.card._id)).toEqual(['b']);
    expect(undone.learning).toEqual([]);
    expect(undone.tally).toEqual({ pass: 0, fail: 0 });
    expect(undone.answered).toEqual([]);
  });

  it("holds back the answered card's new and long-term siblings (not its learning ones) until an undo", () => {
    const ofNote = (card: DueCard, ord: number) => ({
      ...card,
      note_id: 'cloze-note',
      card_type: 'cloze' as const,
      ord,
    });
    const cards = [
      ofNote(newCard('c1'), 0),
      newCard('other'),
      ofNote(newCard('c2'), 1),
      ofNote(dueCard('c3', 'due', 5 * DAY, 10 * MINUTE), 2),
      ofNote(dueCard('c4', 'learning', 10 * MINUTE, MINUTE), 3),
    ];
    let queue = startSession(cards, T0);
    expect(shown(queue)).toBe('c1');
    queue = answerCurrent(queue, 'pass', 1, T0);
    expect(shown(queue)).toBe('other');
    expect(queue.main.map((item) => item.card._id)).toEqual(['c4']);
    expect(remainingCounts(queue)).toEqual({ new: 1, learning: 2, due: 0 });

    // Undo: the siblings are back in their places, the answered card on screen.
    const { queue: undone } = undoLast(queue);
    expect(shown(undone)).toBe('c1');
    expect(undone.main.map((item) => item.card._id)).toEqual(['other', 'c2', 'c3', 'c4']);

    // A learning sibling answered holds the others back too.
    queue = startSession([ofNote(dueCard('c4', 'learning', 10 * MINUTE, MINUTE), 3), ...cards.slice(0, 3)], T0);
    queue = answerCurrent(queue, 'fail', 2, T0);
    expect([shown(queue), ...queue.main.map((item) => item.card._id)]).toEqual(['other']);
  });

  it('undo of a card that came straight back shows it once, not twice', () => {
    let queue = startSession([newCard('a')], T0);
    queue = answerCurrent(queue, 'fail', 1, T0);
    expect(shown(queue)).toBe('a');
    const { queue: undone } = undoLast(queue);
    expect(shown(undone)).toBe('a');
    expect(undone.main).toEqual([]);
    expect(undone.learning).toEqual([]);
    expect(undoLast(undone).undone).toBeNull();
  });
});

describe('interval labels', () => {
  it('uses Anki units: min, h, d, mo, y', () => {
    expect(formatInterval(20_000)).toBe('1 min');
    expect(formatInterval(MINUTE)).toBe('1 min');
    expect(formatInterval(10 * MINUTE)).toBe('10 min');
    expect(formatInterval(3 * HOUR)).toBe('3 h');
    expect(formatInterval(4 * DAY)).toBe('4 d');
    expect(formatInterval(45 * DAY)).toBe('1.5 mo');
    expect(formatInterval(730 * DAY)).toBe('2 y');
    // The unit follows the rounding: a day less a few seconds is a day, not 24 hours.
    expect(formatInterval(DAY - 5_000)).toBe('1 d');
    expect(formatInterval(HOUR - 20_000)).toBe('1 h');
  });

  it('labels the grades with when the card comes back, or the grade alone when unknown', () => {
    expect(gradeLabel('fail', MINUTE)).toBe("Don't know · 1 min");
    expect(gradeLabel('pass', 10 * MINUTE)).toBe('Know it · 10 min');
    expect(gradeLabel('pass', null)).toBe('Know it');
  });
});
