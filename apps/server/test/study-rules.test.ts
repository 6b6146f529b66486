import { DAY_MS } from '@flashcards/shared/time';
import { Rating } from 'ts-fsrs';
import { describe, expect, it } from 'vitest';
import { fuzzSeed, parseWeights, review } from '../src/modules/review/scheduler';
import { CardState, newCardState, statusOf, toCard } from '../src/modules/study-core/card-state';
import { buildQueue, byDueThenId, type QueueReads, type QueueRow } from '../src/modules/study-core/due-queue';
import * as studyDay from '../src/modules/study-core/study-day';

// The study rules one at a time, at their edges: the study day's 04:00 rollover and its zones, the due queue's
// daily new-card allowance, the scheduler's inputs. A mutation run (npm run mutate, group study-core) found these
// edges held by no test.

const HOUR = 3_600_000;

describe('time zones', () => {
  it('stores the runtime’s spelling of a zone and refuses what is not one', () => {
    expect(studyDay.canonicalTimeZone('europe/paris')).toBe('Europe/Paris');
    expect(studyDay.canonicalTimeZone('UTC')).toBe('UTC');
    expect(studyDay.canonicalTimeZone('utc')).toBe('UTC');
    expect(studyDay.canonicalTimeZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(studyDay.canonicalTimeZone('')).toBeNull();
    expect(studyDay.canonicalTimeZone('+05:00')).toBeNull();
    expect(studyDay.canonicalTimeZone('Mars/Olympus_Mons')).toBeNull();
    expect(studyDay.canonicalTimeZone(`Europe/${'x'.repeat(58)}`)).toBeNull();
  });
});

describe('the study day: 04:00 to 04:00 in the learner’s zone', () => {
  const zone = 'Europe/Paris';
  // 2026-11-24 04:00 in Paris (UTC+1) is 03:00 UTC.
  const start = Date.parse('2026-11-24T03:00:00.000Z');

  it('belongs to the previous date until 04:00 local, to the date from 04:00 on', () => {
    expect(studyDay.studyDateOf(start - 1, zone)).toBe('2026-11-23');
    expect(studyDay.studyDateOf(start, zone)).toBe('2026-11-24');
    expect(studyDay.studyDateStart('2026-11-24', zone)).toBe(start);
  });

  it('answers the day’s start for its first and last instant, and the next day’s from its end on', () => {
    const next = start + DAY_MS;
    expect(studyDay.studyDayStart(start + HOUR, zone)).toBe(start);
    expect(studyDay.studyDayStart(next - 1, zone)).toBe(start);
    expect(studyDay.studyDayStart(next, zone)).toBe(next);
    expect(studyDay.studyDayStart(start, zone)).toBe(start);
    expect(studyDay.studyDayStart(start - 1, zone)).toBe(start - DAY_MS);
  });

  it('has 23 hours across the spring daylight-saving change and 25 across the autumn one', () => {
    // Paris moves its clocks at 02:00 on 2026-03-29 and at 03:00 on 2026-10-25: inside the study days that began the
    // evening before.
    const spring = studyDay.studyDateStart('2026-03-28', zone);
    expect(studyDay.studyDateStart('2026-03-29', zone) - spring).toBe(23 * HOUR);
    const autumn = studyDay.studyDateStart('2026-10-24', zone);
    expect(studyDay.studyDateStart('2026-10-25', zone) - autumn).toBe(25 * HOUR);
    expect(studyDay.studyDayStart(spring + 23 * HOUR - 1, zone)).toBe(spring);
    expect(studyDay.studyDayStart(autumn + 25 * HOUR - 1, zone)).toBe(autumn);
  });

  it('numbers study dates as SQL does, and back', () => {
    expect(studyDay.dayNumberOf('1970-01-01')).toBe(0);
    expect(studyDay.dayNumberOf('2026-11-24')).toBe(20_781);
    expect(studyDay.dateOfDayNumber(20_781)).toBe('2026-11-24');
    expect(studyDay.addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(studyDay.addDays('2026-03-01', -1)).toBe('2026-02-28');
    // 04:00 local with a UTC+1 offset is the first instant of the day; one millisecond before is the day before.
    expect(studyDay.dayNumberAt(start, HOUR)).toBe(20_781);
    expect(studyDay.dayNumberAt(start - 1, HOUR)).toBe(20_780);
  });

  it('splits a range at the exact quarter hour the zone’s offset changes, and not elsewhere', () => {
    const from = Date.parse('2026-03-01T00:00:00.000Z');
    const to = Date.parse('2026-04-30T00:00:00.000Z');
    expect(studyDay.offsetSegments(from, to, zone)).toEqual([
      { from: Number.NEGATIVE_INFINITY, offsetMs: HOUR },
      { from: Date.parse('2026-03-29T01:00:00.000Z'), offsetMs: 2 * HOUR },
    ]);
    expect(studyDay.offsetSegments(from, to, 'UTC')).toEqual([{ from: Number.NEGATIVE_INFINITY, offsetMs: 0 }]);
    // A change in the last, shorter-than-a-week stretch of the range.
    const late = Date.parse('2026-10-25T00:30:00.000Z');
    expect(studyDay.offsetSegments(Date.parse('2026-10-20T00:00:00.000Z'), late + HOUR, zone).at(-1)).toEqual({
      from: Date.parse('2026-10-25T01:00:00.000Z'),
      offsetMs: HOUR,
    });
  });
});

describe('the due queue', () => {
  const row = (id: string, due: number, state: number = CardState.New) => ({ id, due, state }) as unknown as QueueRow;

  function reads(options: {
    learning?: QueueRow[];
    review?: QueueRow[];
    allowance?: { deckId: string; dailyLimit: number; introduced: number }[];
    fresh?: QueueRow[];
  }) {
    const asked: { deckId: string; limit: number }[][] = [];
    const queueReads: QueueReads = {
      dueCards: async () => ({ learning: options.learning ?? [], review: options.review ?? [] }),
      newCardAllowance: async () => options.allowance ?? [],
      newCards: async (_userId, take) => {
        asked.push(take);
        return [...(options.fresh ?? [])];
      },
    } as QueueReads;
    return { queueReads, asked };
  }
  const scope = { userId: 'u' } as never;

  it('orders by due, then by id', () => {
    expect(byDueThenId({ due: 1, id: 'b' }, { due: 2, id: 'a' })).toBeLessThan(0);
    expect(byDueThenId({ due: 2, id: 'a' }, { due: 1, id: 'b' })).toBeGreaterThan(0);
    expect(byDueThenId({ due: 1, id: 'a' }, { due: 1, id: 'b' })).toBe(-1);
    expect(byDueThenId({ due: 1, id: 'b' }, { due: 1, id: 'a' })).toBe(1);
    expect(byDueThenId({ due: 1, id: 'a' }, { due: 1, id: 'a' })).toBe(0);
  });

  it('puts learning before long-term cards, cuts at the maximum and asks for no new card when full', async () => {
    const { queueReads, asked } = reads({
      learning: [row('l1', 5, CardState.Learning)],
      review: [row('r1', 1, CardState.Review), row('r2', 2, CardState.Review)],
      allowance: [{ deckId: 'd', dailyLimit: 20, introduced: 0 }],
      fresh: [row('n1', 0)],
    });
    expect((await buildQueue(queueReads, scope, 0, 0, 2)).map((card) => card.id)).toEqual(['l1', 'r1']);
    expect(asked).toEqual([]);
  });

  it('lets each deck give what is left of its daily limit, never more than the room, never less than nothing', async () => {
    const { queueReads, asked } = reads({
      review: [row('r1', 1, CardState.Review)],
      allowance: [
        { deckId: 'a', dailyLimit: 20, introduced: 18 },
        { deckId: 'b', dailyLimit: 5, introduced: 5 },
        { deckId: 'c', dailyLimit: 3, introduced: 9 },
        { deckId: 'd', dailyLimit: 50, introduced: 0 },
      ],
      fresh: [row('n3', 7), row('n1', 3), row('n2', 3), row('n4', 9)],
    });
    const queue = await buildQueue(queueReads, scope, 0, 0, 4);
    expect(asked).toEqual([
      [
        { deckId: 'a', limit: 2 },
        { deckId: 'd', limit: 3 },
      ],
    ]);
    expect(queue.map((card) => card.id)).toEqual(['r1', 'n1', 'n2', 'n3']);
  });
});

describe('the scheduler’s inputs', () => {
  it('reads stored weights only as a JSON array of finite numbers', () => {
    expect(parseWeights(null)).toBeNull();
    expect(parseWeights('[0.2, 1.5, 3]')).toEqual([0.2, 1.5, 3]);
    expect(parseWeights('[0.2, "1.5"]')).toBeNull();
    expect(parseWeights('[0.2, null]')).toBeNull();
    expect(parseWeights('[1e999]')).toBeNull();
    expect(parseWeights('{"w": [1]}')).toBeNull();
    expect(parseWeights('not json')).toBeNull();
  });

  it('draws a fuzz seed from the random source, and a fixed one when it gives nothing to draw', () => {
    expect(fuzzSeed(() => 0)).toBe('0');
    expect(fuzzSeed(() => 0.5)).toBe('i');
  });

  it('counts the days since the last review (fractional), and none for a first review', () => {
    const now = Date.parse('2026-11-24T12:00:00.000Z');
    const first = review(newCardState(now), 'pass', now, () => 0.5);
    expect(first.rating).toBe(Rating.Good);
    expect(first.elapsedDays).toBe(0);
    const later = review(first.next, 'fail', now + 3 * DAY_MS, () => 0.5);
    expect(later.rating).toBe(Rating.Again);
    expect(later.elapsedDays).toBe(3);
    expect(review(first.next, 'pass', now + DAY_MS / 2, () => 0.5).elapsedDays).toBe(0.5);
  });
});

describe('a card’s API shape', () => {
  it('names every state as the API does', () => {
    expect([0, 1, 2, 3].map((state) => statusOf(state as never))).toEqual(['new', 'learning', 'due', 'relearning']);
    const now = Date.parse('2026-11-24T12:00:00.000Z');
    expect(
      toCard({
        id: 'c',
        deck_id: 'd',
        question: 'Q',
        answer: 'A',
        state: CardState.Relearning,
        due: now,
        created_at: now - DAY_MS,
        reps: 4,
        lapses: 1,
        note_id: 'n',
        card_type: 'basic',
        ord: 0,
        occlusion: null,
        source: null,
      }),
    ).toEqual({
      _id: 'c',
      deck_id: 'd',
      note_id: 'n',
      card_type: 'basic',
      ord: 0,
      question: 'Q',
      answer: 'A',
      status: 'relearning',
      due_date: '2026-11-24T12:00:00.000Z',
      created_at: '2026-11-23T12:00:00.000Z',
      reps: 4,
      lapses: 1,
      source: null,
    });
  });
});
