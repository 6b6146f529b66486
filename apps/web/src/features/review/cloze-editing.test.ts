import { describe, expect, it } from 'vitest';
import { clozeShortcut, highestClozeNumber, wrapInCloze } from './cloze-editing';

const keys = { key: 'C', code: 'KeyC', ctrlKey: true, metaKey: false, shiftKey: true, altKey: false };

describe('highestClozeNumber', () => {
  it('reads the highest number of every opening, whatever their order; 0 without one', () => {
    expect(highestClozeNumber('no cloze, {{not one}} and {{c::x}}')).toBe(0);
    expect(highestClozeNumber('{{c2::a}} {{c10::b}} {{c3::c}} {{C12::d}}')).toBe(12);
  });
});

describe('wrapInCloze (Anki: Ctrl+Shift+C the next number, with Alt the same one)', () => {
  it('wraps the selection in the next number, the caret after the deletion', () => {
    const text = 'Paris is the capital of France';
    const edit = wrapInCloze(text, 0, 5, false);
    expect(edit.text).toBe('{{c1::Paris}} is the capital of France');
    expect(edit).toMatchObject({ from: 0, to: 5, replacement: '{{c1::Paris}}' });
    expect(edit.selectionStart).toBe('{{c1::Paris}}'.length);
    expect(edit.selectionEnd).toBe(edit.selectionStart);

    const second = wrapInCloze(edit.text, edit.text.length - 6, edit.text.length, false);
    expect(second.text).toBe('{{c1::Paris}} is the capital of {{c2::France}}');
  });

  it('uses the highest number again with Alt, and 1 when the text has no cloze yet', () => {
    const text = '{{c1::H2O}} is water; {{c2::NaCl}} is salt';
    const same = wrapInCloze(text, text.indexOf('salt'), text.length, true);
    expect(same.text).toBe('{{c1::H2O}} is water; {{c2::NaCl}} is {{c2::salt}}');
    expect(wrapInCloze('a b', 0, 1, true).text).toBe('{{c1::a}} b');
    // The next number follows the highest, not the count of deletions.
    expect(wrapInCloze('{{c4::x}} y', 10, 11, false).text).toBe('{{c4::x}} {{c5::y}}');
  });

  it('with nothing selected inserts an empty deletion with the caret inside it', () => {
    const edit = wrapInCloze('The answer: ', 12, 12, false);
    expect(edit.text).toBe('The answer: {{c1::}}');
    expect(edit.selectionStart).toBe('The answer: {{c1::'.length);
  });

  it('keeps math and markdown inside the selection as written, and orders a backwards selection', () => {
    const text = 'Energy: $E = mc^2$ **always**';
    const edit = wrapInCloze(text, 18, 8, false);
    expect(edit.text).toBe('Energy: {{c1::$E = mc^2$}} **always**');
    expect(edit.from).toBe(8);
    expect(edit.to).toBe(18);
  });

  it('clamps a selection past the end of the text', () => {
    expect(wrapInCloze('abc', 1, 99, false).text).toBe('a{{c1::bc}}');
  });
});

describe('clozeShortcut', () => {
  it('is Ctrl+Shift+C (⌘ on a Mac), same number with Alt', () => {
    expect(clozeShortcut(keys)).toBe('next');
    expect(clozeShortcut({ ...keys, ctrlKey: false, metaKey: true })).toBe('next');
    // With Alt (Option) held the key gives another character; the physical key still counts.
    expect(clozeShortcut({ ...keys, key: 'Ç', altKey: true })).toBe('same');
  });

  it('leaves other keys alone', () => {
    expect(clozeShortcut({ ...keys, shiftKey: false })).toBeNull();
    expect(clozeShortcut({ ...keys, ctrlKey: false })).toBeNull();
    expect(clozeShortcut({ ...keys, key: 'V', code: 'KeyV' })).toBeNull();
  });
});
