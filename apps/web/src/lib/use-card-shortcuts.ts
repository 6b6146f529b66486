import { pressable, useScreenKeys } from './use-screen-keys';

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

/**
 * The card screens' keys (review and quiz): Space flips, A and D answer or move, U undoes (where given). Keys typed into a field, held
 * down or with a modifier are left alone, as are keys while a dialog is open over the screen, and Space on a
 * focused button or link presses it. The actions may change on every render; the listener reads the latest.
 */
export function useCardShortcuts(active: boolean, actions: CardShortcutActions): void {
  useScreenKeys(active, (key, event) => {
    if (key === ' ' || event.code === 'Space') {
      if (pressable(event.target)) return false;
      actions.space();
    } else if (key === 'a' || key === 'd') actions[key]();
    else if (key === 'u' && actions.u) actions.u();
    else if (key === 's' && actions.s) actions.s();
    else if (key === 'enter' && actions.enter && !pressable(event.target)) actions.enter();
    else return false;
    return true;
  });
}
