/** The text and the selection after a cloze is wrapped around (or inserted at) the selection. */
export interface ClozeEdit {
  text: string;
  /** Where the replaced range began and ended in the text before, and what replaced it. */
  from: number;
  to: number;
  replacement: string;
  /** The selection to set afterwards. */
  selectionStart: number;
  selectionEnd: number;
}

/** The highest cloze number in `text` (`{{c3::…}}` is 3; `C` counts as the parser reads it), or 0 when it has none. */
export function highestClozeNumber(text: string): number {
  let highest = 0;
  for (const match of text.matchAll(/\{\{c(\d+)::/gi)) {
    highest = Math.max(highest, Number(match[1]));
  }
  return highest;
}

/**
 * Wraps the selection `from`–`to` of `text` in a cloze, as Anki's editor does: the next number (the highest so far
 * plus one), or with `sameNumber` (Anki's Alt) the highest again, never below 1. A selection becomes
 * `{{cN::selection}}` with the caret after it; with nothing selected, `{{cN::}}` goes in with the caret inside, ready
 * for the words to hide.
 */
export function wrapInCloze(text: string, from: number, to: number, sameNumber: boolean): ClozeEdit {
  const start = Math.max(0, Math.min(from, to, text.length));
  const end = Math.min(text.length, Math.max(from, to));
  const highest = highestClozeNumber(text);
  const number = Math.max(1, sameNumber ? highest : highest + 1);
  const opening = `{{c${number}::`;
  const selected = text.slice(start, end);
  const replacement = `${opening}${selected}}}`;
  const caret = selected ? start + replacement.length : start + opening.length;
  return {
    text: text.slice(0, start) + replacement + text.slice(end),
    from: start,
    to: end,
    replacement,
    selectionStart: caret,
    selectionEnd: caret,
  };
}

/** What a key press asks of a cloze text box: Anki's Ctrl+Shift+C (⌘ on a Mac) for the next number, with Alt the same one. */
export function clozeShortcut(event: {
  key: string;
  code: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}): 'next' | 'same' | null {
  // The physical key: with Alt (Option on a Mac) held, `key` is another character.
  const isC = event.code === 'KeyC' || event.key.toLowerCase() === 'c';
  if (!isC || !event.shiftKey || !(event.ctrlKey || event.metaKey)) return null;
  return event.altKey ? 'same' : 'next';
}
