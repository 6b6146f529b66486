import { useEffect, useRef } from 'react';

export interface CardShortcutActions {
  /** A: "don't know" in a review, the previous card in a quiz. */
  a: () => void;
  /** D: "know it" in a review, the next card in a quiz. */
  d: () => void;
  /** Space: flip the card. */
  space: () => void;
  /** U: undo the last answer (review only). */
  u?: () => void;
  /** S: show or hide the card's source (review only). */
  s?: () => void;
  /** Enter: take the suggested grade of a typed answer (review only); Enter on a button or link presses it. */
  enter?: () => void;
}

const ownsKeys = (element: EventTarget | null) =>
  element instanceof HTMLElement &&
  (element.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName));

const ownsSpace = (element: EventTarget | null) =>
  element instanceof HTMLElement && ['BUTTON', 'A', 'SUMMARY'].includes(element.tagName);

/**
 * The card screens' keys (review and quiz): Space flips, A and D answer or move, U undoes (where given). Keys typed into a field, held
 * down or with a modifier are left alone, as are keys while a dialog is open over the screen, and Space on a
 * focused button or link presses it. The actions may change on every render; the listener reads the latest.
 */
export function useCardShortcuts(active: boolean, actions: CardShortcutActions): void {
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    if (!active) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.repeat || ownsKeys(event.target)) return;
      if (document.querySelector('[aria-modal="true"]')) return;
      const key = event.key.toLowerCase();
      if (key === ' ' || event.code === 'Space') {
        if (ownsSpace(event.target)) return;
        event.preventDefault();
        latest.current.space();
      } else if (key === 'a' || key === 'd') {
        event.preventDefault();
        latest.current[key]();
      } else if (key === 'u' && latest.current.u) {
        event.preventDefault();
        latest.current.u();
      } else if (key === 's' && latest.current.s) {
        event.preventDefault();
        latest.current.s();
      } else if (key === 'enter' && latest.current.enter && !ownsSpace(event.target)) {
        event.preventDefault();
        latest.current.enter();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [active]);
}
