import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTextFile } from './text-import';

const fixture = (name: string) =>
  readFileSync(path.join(import.meta.dirname, '../../../test/fixtures/anki-text', name), 'utf8');

const pairs = (text: string, kind: 'txt' | 'csv' | 'tsv' = 'txt') =>
  parseTextFile(text, kind).rows.map((row) => [row.line, row.type, row.front, row.back]);

describe("Anki's text format", () => {
  it("reads Anki's text-2fields.txt: a comment, repeats apart, rows with their line numbers", () => {
    const file = parseTextFile(fixture('text-2fields.txt'), 'txt');
    expect(file.html).toBe(false);
    expect(file.repeats).toEqual([6]);
    expect(file.rows.map((row) => [row.line, row.front, row.back])).toEqual([
      [2, '食べる', 'to eat'],
      [3, '飲む', 'to drink'],
      [4, 'テスト', 'test'],
      [5, 'to eat', '食べる'],
      [7, '多すぎる', 'too many'],
      [8, 'not, enough, fields', ''],
      [9, '遊ぶ', ''],
      [10, '', 'to play'],
    ]);
  });

  it("reads Anki's text-tags.txt and text-update.txt with the tab guessed", () => {
    expect(pairs(fixture('text-tags.txt'))).toEqual([
      [1, 'basic', 'foo', 'bar'],
      [2, 'basic', 'foo2', 'bar2'],
    ]);
    expect(pairs(fixture('text-update.txt'))).toEqual([[1, 'basic', '1', 'x']]);
  });

  it('takes the separator from the header by name or by character, trimming what a spreadsheet appended', () => {
    expect(pairs('#separator:Pipe,,,,\na|b\n')).toEqual([[2, 'basic', 'a', 'b']]);
    expect(pairs('#separator:\t\na\tb,c\n')).toEqual([[2, 'basic', 'a', 'b,c']]);
    expect(pairs('#separator:;\na;b,c\n')).toEqual([[2, 'basic', 'a', 'b,c']]);
    expect(pairs('#separator:comma\n"a;1",b\n')).toEqual([[2, 'basic', 'a;1', 'b']]);
  });

  it('guesses one separator for the whole file from its first lines: a line without it has one column', () => {
    expect(pairs('a;b\nc;d\n')).toEqual([
      [1, 'basic', 'a', 'b'],
      [2, 'basic', 'c', 'd'],
    ]);
    // Tab on every first line wins over the comma inside a field; the comma line is not split.
    expect(pairs('chat\tcat\nchien\tdog, the animal\nloup,wolf\n')).toEqual([
      [1, 'basic', 'chat', 'cat'],
      [2, 'basic', 'chien', 'dog, the animal'],
      [3, 'basic', 'loup,wolf', ''],
    ]);
    // The extension decides for .csv and .tsv without a header.
    expect(pairs('a;b,c\n', 'csv')).toEqual([[1, 'basic', 'a;b', 'c']]);
    expect(pairs('a,b\tc\n', 'tsv')).toEqual([[1, 'basic', 'a,b', 'c']]);
  });

  it('treats every other line starting with # as a comment, and counts lines across quoted line breaks', () => {
    const text = '#separator:tab\n# a comment\n#html:false\n"multi\nline"\tback\n#later comment\n\nq\ta\n';
    expect(pairs(text)).toEqual([
      [4, 'basic', 'multi\nline', 'back'],
      [8, 'basic', 'q', 'a'],
    ]);
  });

  it('reads #html: true or false, and guesses HTML from the first rows without it', () => {
    expect(parseTextFile('#html:true\na\tb\n', 'txt').html).toBe(true);
    expect(parseTextFile('#html:FALSE\n<b>a</b>\tb\n', 'txt').html).toBe(false);
    expect(parseTextFile('<b>a</b>\tb\n', 'txt').html).toBe(true);
    expect(parseTextFile('a < b\tc > d\n', 'txt').html).toBe(false);
  });

  it('maps #notetype: to note types, Anki names or ours; the optional reverse only where Add Reverse is filled', () => {
    expect(pairs('#notetype:Basic (and reversed card)\na\tb\n')[0]?.[1]).toBe('reversed');
    expect(pairs('#notetype:reversed\na\tb\n')[0]?.[1]).toBe('reversed');
    expect(pairs('#notetype:Cloze\n{{c1::a}}\textra\n')).toEqual([[2, 'cloze', '{{c1::a}}', 'extra']]);
    expect(pairs('#notetype:Basic (optional reversed card)\na\tb\ty\nc\td\t\n')).toEqual([
      [2, 'reversed', 'a', 'b'],
      [3, 'basic', 'c', 'd'],
    ]);
    expect(pairs('#notetype:Vocabulary (custom)\na\tb\n')[0]?.[1]).toBe('basic');
  });

  it('maps columns by #columns: names, and leaves out the tags, guid, deck and notetype columns', () => {
    const text = [
      '#separator:tab',
      '#columns:Tags\tBack\tFront\tDeck',
      '#tags column:1',
      '#deck column:4',
      'tag1 tag2\tthe back\tthe front\tSpanish::Verbs',
    ].join('\n');
    expect(parseTextFile(text, 'txt').rows).toEqual([
      { line: 5, type: 'basic', front: 'the front', back: 'the back', deck: 'Spanish::Verbs' },
    ]);
    const byIndex =
      '#separator:Semicolon\n#guid column:1\n#notetype column:2\n#tags column:5\nabc;Cloze;{{c1::x}};more;t\n';
    expect(parseTextFile(byIndex, 'txt').rows).toEqual([
      { line: 5, type: 'cloze', front: '{{c1::x}}', back: 'more', guid: 'abc' },
    ]);
  });

  it('reads the #deck: header, and drops a first row that names the columns', () => {
    expect(parseTextFile('#deck:Chemistry::Acids\na\tb\n', 'txt').deck).toBe('Chemistry::Acids');
    expect(pairs('question,answer\nq,a\n', 'csv')).toEqual([[2, 'basic', 'q', 'a']]);
    expect(pairs('#notetype:Cloze\nText\tExtra\n{{c1::x}}\ty\n')).toEqual([[3, 'cloze', '{{c1::x}}', 'y']]);
  });
});
