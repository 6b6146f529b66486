import type { Clock } from '../../src/adapters/clock';

/** A clock that stands still until a test moves it. */
export class TestClock implements Clock {
  constructor(private current = Date.parse('2026-11-22T10:00:00.000Z')) {}

  now(): number {
    return this.current;
  }

  advance(ms: number): void {
    this.current += ms;
  }

  set(iso: string): void {
    this.current = Date.parse(iso);
  }
}
