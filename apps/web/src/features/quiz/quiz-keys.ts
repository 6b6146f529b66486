import { pressable, useScreenKeys } from '../../lib/use-screen-keys';

/**
 * A quiz question's keys: `onKey` gets each key (lower case) and says whether it took it. Keys typed into a field,
 * held down or with a modifier are left alone, as are keys under an open dialog, and Enter or Space on a focused
 * button or link presses it instead.
 */
export function useQuizKeys(active: boolean, onKey: (key: string) => boolean): void {
  useScreenKeys(active, (key, event) => !((key === 'enter' || key === ' ') && pressable(event.target)) && onKey(key));
}
