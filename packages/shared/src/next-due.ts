import { messages } from './messages';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * When the next card is due, as the review page says it: 'very soon' (within a minute, or already due), otherwise
 * 'in N minutes', 'in N hours' or 'in N days' (rounded up, singular for 1). `nextDueTime` is DeckStats.next_due_time.
 */
export function formatNextDue(nextDueTime: string | number | Date, now: number = Date.now()): string {
  const due = nextDueTime instanceof Date ? nextDueTime.getTime() : new Date(nextDueTime).getTime();
  const wait = due - now;
  if (!Number.isFinite(wait) || wait < MINUTE) return messages.nextDueVerySoon;
  const minutes = Math.ceil(wait / MINUTE);
  if (minutes < 60) return inUnits(minutes, 'minute');
  const hours = Math.ceil(wait / HOUR);
  if (hours < 24) return inUnits(hours, 'hour');
  return inUnits(Math.ceil(wait / DAY), 'day');
}

function inUnits(count: number, unit: 'minute' | 'hour' | 'day'): string {
  return `in ${count} ${unit}${count === 1 ? '' : 's'}`;
}
