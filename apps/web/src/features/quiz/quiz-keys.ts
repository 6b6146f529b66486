import { useEffect, useRef } from 'react';

const ownsKeys = (element: EventTarget | null) =>
  element instanceof HTMLElement &&
  (element.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName));

const presses = (element: EventTarget | null) =>
  element instanceof HTMLElement && ['BUTTON', 'A', 'SUMMARY'].includes(element.tagName);

/**
 * A quiz question's keys: `onKey` gets each key (lower case) and says whether it took it. Keys typed into a field,
 * held down or with a modifier are left alone, as are keys under an open dialog, and Enter or Space on a focused
 * button or link presses it instead.
 */
export function useQuizKeys(active: boolean, onKey: (key: string) => boolean): void {
  const latest = useRef(onKey);
  latest.current = onKey;
  useEffect(() => {
    if (!active) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.repeat || ownsKeys(event.target)) return;
      if (document.querySelector('[aria-modal="true"]')) return;
      const key = event.key.toLowerCase();
      if ((key === 'enter' || key === ' ') && presses(event.target)) return;
      if (latest.current(key)) event.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [active]);
}
