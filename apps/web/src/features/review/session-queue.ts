import type { Card, DueCard, ReviewResult } from '@flashcards/shared/api-types';

/**
 * A review session as Anki runs it: the cards GET /cards/due gave, in its order, and the learning and relearning
 * cards answered in this session, each coming back when it is due again. Learning cards due now go first; when
 * nothing else is left, one due within the learn-ahead is shown early; the session ends when nothing is due within
 * it. Pure functions of the session and the time, so that the rules are tested without a screen.
 */

/** Anki's default learn-ahead limit. */
export const learnAheadMs = 20 * 60_000;

/**
 * A card whose answer brings it back sooner than this is taken for a learning step and shown again within the session
 * (FSRS never schedules a long-term card under a day); the server's reply to the answer settles it.
 */
export const sessionReturnMs = 12 * 60 * 60_000;

/** How long after an answer at `at` each grade brings a card back (ms), from the server's `next_due`. */
export type Intervals = Record<ReviewResult, number>;

export interface SessionCard {
  card: Card;
  /** When it may be shown (ms, this device's clock). */
  dueAt: number;
  /** From the latest `next_due` the server sent for it; null while its previous answer is still on its way. */
  intervals: Intervals | null;
  /** Answered in this session and back for a learning step. */
  returning?: boolean;
  /** The answer (answer queue id) that sent it back: the server's reply to it brings its new intervals. */
  answerId?: number;
}

export interface SessionQueue {
  /** On screen, or null when the session has ended. */
  current: SessionCard | null;
  /** The queue from the server, in its order, after the current card. */
  main: SessionCard[];
  /** Cards answered in this session that come back, earliest first. */
  learning: SessionCard[];
  /** Cards answered while their intervals were unknown: whether they come back waits for the server's answer. */
  waiting: SessionCard[];
  /** Cards answered in this session, the latest last, to take back (undo). */
  answered: AnsweredCard[];
  tally: Record<ReviewResult, number>;
}

export interface AnsweredCard {
  /** The answer queue's id of this answer. */
  answerId: number;
  before: SessionCard;
  result: ReviewResult;
  /** Its siblings this answer held back, with their places in the queue then (an undo puts them back). */
  held: { index: number; item: SessionCard }[];
}

export function intervalsOf(card: DueCard, at: number): Intervals {
  return {
    pass: Math.max(0, Date.parse(card.next_due.pass) - at),
    fail: Math.max(0, Date.parse(card.next_due.fail) - at),
  };
}

/** A session of the cards GET /cards/due answered at `at`. */
export function startSession(cards: readonly DueCard[], at: number): SessionQueue {
  const main = cards.map((card) => ({ card, dueAt: at, intervals: intervalsOf(card, at) }));
  return pickNext({ current: null, main, learning: [], waiting: [], answered: [], tally: { pass: 0, fail: 0 } }, at);
}

/** The next card to show at `now` (`current` when one is shown already), or null: the session is over. */
export function pickNext(queue: SessionQueue, now: number, learnAhead = learnAheadMs): SessionQueue {
  if (queue.current) return queue;
  const [firstLearning, ...laterLearning] = queue.learning;
  if (firstLearning && firstLearning.dueAt <= now) return { ...queue, current: firstLearning, learning: laterLearning };
  const [firstMain, ...laterMain] = queue.main;
  if (firstMain) return { ...queue, current: firstMain, main: laterMain };
  if (firstLearning && firstLearning.dueAt <= now + learnAhead) {
    return { ...queue, current: firstLearning, learning: laterLearning };
  }
  return queue;
}

function byDue(cards: SessionCard[]): SessionCard[] {
  return [...cards].sort((a, b) => a.dueAt - b.dueAt);
}

/** A sibling (another card of the same note) that an answer holds back: new and long-term ones, not learning ones. */
const heldBy = (answered: Card) => (item: SessionCard) =>
  item.card.note_id === answered.note_id &&
  item.card._id !== answered._id &&
  (item.card.status === 'new' || item.card.status === 'due');

/**
 * Answers the current card at `now` (`answerId`: the answer queue's id for it) and shows the next. The card comes
 * back within the session when its interval for this answer is a learning step. Its new and long-term siblings are
 * held back for the rest of the session, as the server holds them back for the rest of the study day (and Anki
 * buries them): another card of a cloze note would show the answer just seen.
 */
export function answerCurrent(
  queue: SessionQueue,
  result: ReviewResult,
  answerId: number,
  now: number,
  learnAhead = learnAheadMs,
): SessionQueue {
  const { current } = queue;
  if (!current) return queue;
  const isHeld = heldBy(current.card);
  const held = queue.main.flatMap((item, index) => (isHeld(item) ? [{ index, item }] : []));
  const main = held.length > 0 ? queue.main.filter((item) => !isHeld(item)) : queue.main;
  const answered = [...queue.answered, { answerId, before: current, result, held }];
  const tally = { ...queue.tally, [result]: queue.tally[result] + 1 };
  let { learning, waiting } = queue;
  if (current.intervals === null) {
    waiting = [...waiting, { ...current, intervals: null, answerId }];
  } else {
    const interval = current.intervals[result];
    if (interval < sessionReturnMs) {
      learning = byDue([
        ...learning,
        { ...current, dueAt: now + interval, intervals: null, returning: true, answerId },
      ]);
    }
  }
  return pickNext({ ...queue, current: null, main, learning, waiting, answered, tally }, now, learnAhead);
}

/**
 * The server recorded the answer `answerId` (its reply, `card`, just in at `now`): the card it sent back learns its new
 * intervals; a card answered before its intervals were known comes back if the server made it a learning step. A
 * reply to an answer taken back meanwhile changes nothing.
 */
export function answerRecorded(queue: SessionQueue, answerId: number, card: DueCard, now: number): SessionQueue {
  const intervals = intervalsOf(card, now);
  const update = (item: SessionCard) => (item.answerId === answerId ? { ...item, card, intervals } : item);
  const current = queue.current ? update(queue.current) : null;
  // The server made it a long-term card after all: it does not come back in this session.
  const stays = (item: SessionCard) => item.answerId !== answerId || card.status !== 'due';
  const learning = queue.learning.filter(stays).map(update);
  const waited = queue.waiting.find((item) => item.answerId === answerId);
  if (!waited) return { ...queue, current, learning };
  const waiting = queue.waiting.filter((item) => item !== waited);
  const dueIn = Math.max(0, Date.parse(card.due_date) - now);
  const returns = (card.status === 'learning' || card.status === 'relearning') && dueIn < sessionReturnMs;
  if (!returns) return { ...queue, current, learning, waiting };
  const back: SessionCard = { card, dueAt: now + dueIn, intervals, returning: true, answerId };
  return { ...queue, current, learning: byDue([...learning, back]), waiting };
}

/** Takes back the latest answer: its card is on screen again, as it was, and its coming back is cancelled. */
export function undoLast(queue: SessionQueue): { queue: SessionQueue; undone: AnsweredCard | null } {
  const undone = queue.answered.at(-1);
  if (!undone) return { queue, undone: null };
  const id = undone.before.card._id;
  // The card may be on screen already (it came straight back): it is replaced, not shown twice.
  const main = queue.current && queue.current.card._id !== id ? [queue.current, ...queue.main] : [...queue.main];
  // The siblings it held back are back where they were.
  for (const { index, item } of undone.held) main.splice(index, 0, item);
  return {
    undone,
    queue: {
      current: undone.before,
      main,
      // The copy of this card that would come back goes (the latest one: an earlier answer of it is already past).
      learning: queue.learning.filter((item) => item.card._id !== id),
      waiting: queue.waiting.filter((item) => item.card._id !== id),
      answered: queue.answered.slice(0, -1),
      tally: { ...queue.tally, [undone.result]: Math.max(0, queue.tally[undone.result] - 1) },
    },
  };
}

/** Shows the cards still to come back now, however far their time (the end screen's "keep going"). */
export function studyAhead(queue: SessionQueue, now: number): SessionQueue {
  return pickNext(queue, now, Number.POSITIVE_INFINITY);
}

/** When the next card of this session would be due (ms), or null when none comes back. */
export function nextReturn(queue: SessionQueue): number | null {
  return queue.learning[0]?.dueAt ?? null;
}

/** New, learning and due cards still to show in this session (the current one included). */
export function remainingCounts(queue: SessionQueue): { new: number; learning: number; due: number } {
  const counts = { new: 0, learning: 0, due: 0 };
  const all = [...(queue.current ? [queue.current] : []), ...queue.main, ...queue.learning, ...queue.waiting];
  for (const { card, returning } of all) {
    if (returning) counts.learning += 1;
    else if (card.status === 'new') counts.new += 1;
    else if (card.status === 'due') counts.due += 1;
    else counts.learning += 1;
  }
  return counts;
}
