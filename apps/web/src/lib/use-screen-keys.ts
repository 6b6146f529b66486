import { useEffect, useRef } from 'react';

const ownsKeys = (element: EventTarget | null) =>
  element instanceof HTMLElement &&
  (element.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName));

/** A focused button, link or summary, which Enter and Space press. */
export const pressable = (element: EventTarget | null) =>
  element instanceof HTMLElement && ['BUTTON', 'A', 'SUMMARY'].includes(element.tagName);

/**
 * A screen's own keys: `onKey` gets each key (lower case) and says whether it took it, which keeps the browser from
 * acting on it too. Keys typed into a field, held down or with a modifier are left alone, as are keys while a dialog
 * is open over the screen. `onKey` may change on every render; the listener reads the latest.
 */
export function useScreenKeys(active: boolean, onKey: (key: string, event: KeyboardEvent) => boolean): void {
  const latest = useRef(onKey);
  latest.current = onKey;
  useEffect(() => {
    if (!active) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.repeat || ownsKeys(event.target)) return;
      if (document.querySelector('[aria-modal="true"]')) return;
      if (latest.current(event.key.toLowerCase(), event)) event.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [active]);
}
