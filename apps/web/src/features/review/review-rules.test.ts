import type { Card } from '@flashcards/shared/api-types';
import { describe, expect, it } from 'vitest';
import { parseDailyLimit } from './daily-limit';
import { sessionCounts } from './session-counts';

describe('daily new card limit input', () => {
  it.each([
    ['12', 12],
    [' 7 ', 7],
    ['7.9', 7],
    ['0', 0],
    ['-3', 0],
    ['abc', 0],
    ['', 0],
  ])('%j becomes %i', (input, expected) => {
    expect(parseDailyLimit(input)).toBe(expected);
  });
});

describe('session counts', () => {
  const now = Date.parse('2026-11-22T10:00:00.000Z');
  const card = (status: Card['status'], due: string): Card => ({
    _id: `${status}${due}`,
    deck_id: 'd',
    question: 'q',
    answer: 'a',
    status,
    due_date: due,
    created_at: due,
    reps: 0,
    lapses: 0,
    note_id: `${status}${due}`,
    card_type: 'basic',
    ord: 0,
    source: null,
  });
  it('counts new, learning (learning or relearning) and due (status due with the due date reached)', () => {
    expect(
      sessionCounts(
        [
          card('new', '2026-11-22T09:00:00.000Z'),
          card('learning', '2026-11-22T09:59:00.000Z'),
          card('relearning', '2026-11-22T09:58:00.000Z'),
          card('due', '2026-11-22T10:00:00.000Z'),
          card('due', '2026-11-22T10:00:01.000Z'),
        ],
        now,
      ),
    ).toEqual({ new: 1, learning: 2, due: 1 });
  });
});
