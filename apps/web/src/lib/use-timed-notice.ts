import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Runs `callback` `ms` after `trigger` becomes truthy; a new truthy value starts the wait again, and a falsy one
 * or unmounting cancels it. The callback may change on every render; the latest one runs.
 */
export function useTimeout(trigger: unknown, ms: number, callback: () => void): void {
  const latest = useRef(callback);
  latest.current = callback;
  useEffect(() => {
    if (!trigger) return;
    const timer = setTimeout(() => latest.current(), ms);
    return () => clearTimeout(timer);
  }, [trigger, ms]);
}

export interface TimedNotice<T> {
  /** What shows now, or null. */
  value: T | null;
  /** Shows `value` for the notice's time; showing again (even the same value) starts the time again. */
  show: (value: T) => void;
  clear: () => void;
}

/** A notice that hides itself after `ms` ("Copied!", "Card added successfully!", a payment's confirmation). */
export function useTimedNotice<T>(ms: number): TimedNotice<T> {
  // A fresh object per show, so that showing the same value again restarts the timer.
  const [shown, setShown] = useState<{ value: T } | null>(null);
  const clear = useCallback(() => setShown(null), []);
  const show = useCallback((value: T) => setShown({ value }), []);
  useTimeout(shown, ms, clear);
  return { value: shown ? shown.value : null, show, clear };
}
