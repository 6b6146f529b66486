import { formatNextDue } from '@flashcards/shared/next-due';
import { describe, expect, it } from 'vitest';

const now = Date.parse('2026-11-22T10:00:00.000Z');
const at = (ms: number) => new Date(now + ms).toISOString();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('formatNextDue (packages/shared)', () => {
  it.each([
    [at(-5 * MINUTE), 'very soon'],
    [at(0), 'very soon'],
    [at(59_999), 'very soon'],
    [at(MINUTE), 'in 1 minute'],
    [at(MINUTE + 1), 'in 2 minutes'],
    [at(10 * MINUTE), 'in 10 minutes'],
    [at(59 * MINUTE + 30_000), 'in 1 hour'],
    [at(HOUR), 'in 1 hour'],
    [at(5 * HOUR + 1), 'in 6 hours'],
    [at(23 * HOUR), 'in 23 hours'],
    [at(23 * HOUR + 1), 'in 1 day'],
    [at(DAY), 'in 1 day'],
    [at(3 * DAY), 'in 3 days'],
    ['not a date', 'very soon'],
  ])('%s → %s', (next, text) => {
    expect(formatNextDue(next, now)).toBe(text);
  });

  it('takes a Date or epoch milliseconds too', () => {
    expect(formatNextDue(new Date(now + 2 * DAY), now)).toBe('in 2 days');
    expect(formatNextDue(now + 30 * MINUTE, now)).toBe('in 30 minutes');
  });
});
