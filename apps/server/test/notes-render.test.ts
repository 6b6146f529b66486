import { messages } from '@flashcards/shared/messages';
import {
  checkNote,
  type NoteCheck,
  nextClozeNumber,
  noteLimits,
  noteProblemText,
  parseCloze,
  renderNote,
} from '@flashcards/shared/notes';
import { describe, expect, it } from 'vitest';

/** The cards of a note that must be accepted. */
function cardsOf(type: string, fields: unknown) {
  const result = checkNote(type, fields);
  if (!result.ok) throw new Error(`expected the note to be accepted, got ${noteProblemText(result.problem)}`);
  return result.cards;
}

/** The detail of a note that must be refused. */
function refusal(type: unknown, fields: unknown): string {
  const result: NoteCheck = checkNote(type, fields);
  if (result.ok) throw new Error('expected the note to be refused');
  return noteProblemText(result.problem);
}

const cloze = (text: string, extra?: string) => cardsOf('cloze', extra === undefined ? { text } : { text, extra });

describe('basic and reversed notes (packages/shared/notes)', () => {
  it('a basic note makes one card, front to back', () => {
    expect(cardsOf('basic', { front: 'What is **ATP**?', back: 'Energy currency $E=mc^2$' })).toEqual([
      { card_type: 'basic', ord: 0, question: 'What is **ATP**?', answer: 'Energy currency $E=mc^2$' },
    ]);
  });

  it('a reversed note makes two cards, front to back (0) and back to front (1)', () => {
    expect(cardsOf('reversed', { front: 'der Hund', back: 'the dog' })).toEqual([
      { card_type: 'basic', ord: 0, question: 'der Hund', answer: 'the dog' },
      { card_type: 'reverse', ord: 1, question: 'the dog', answer: 'der Hund' },
    ]);
  });

  it('keeps the fields as written (no trimming of what the learner wrote)', () => {
    const result = checkNote('basic', { front: '  a  ', back: 'b\n' });
    expect(result.ok && result.note).toEqual({ type: 'basic', fields: { front: '  a  ', back: 'b\n' } });
  });

  it.each([
    [{ front: '', back: 'b' }, 'The front field cannot be empty.'],
    [{ front: '   \n ', back: 'b' }, 'The front field cannot be empty.'],
    [{ front: 'a', back: '' }, 'The back field cannot be empty.'],
    [{ front: 'a' }, 'The back field cannot be empty.'],
    [{ front: 'a', back: null }, 'The back field cannot be empty.'],
    [{ front: 7, back: 'b' }, 'The front field must be text.'],
    [{ front: ['a'], back: 'b' }, 'The front field must be text.'],
    [{ front: 'a', back: 'b', text: 'c' }, 'These fields do not fit a basic note.'],
    [{ question: 'a', answer: 'b' }, 'These fields do not fit a basic note.'],
  ])('refuses basic fields %j', (fields, detail) => {
    expect(refusal('basic', fields)).toBe(detail);
  });

  it.each([null, 'front', 3, ['a', 'b']])('refuses fields that are not an object: %j', (fields) => {
    expect(refusal('reversed', fields)).toBe('These fields do not fit a reversed note.');
  });

  it('refuses a field over 20,000 characters, and a 100,000-character note, in bounded time', () => {
    expect(cardsOf('basic', { front: 'a'.repeat(noteLimits.maxFieldLength), back: 'b' })).toHaveLength(1);
    expect(refusal('basic', { front: 'a'.repeat(noteLimits.maxFieldLength + 1), back: 'b' })).toBe(
      'The front field can be at most 20,000 characters.',
    );
    expect(refusal('cloze', { text: `{{c1::x}} ${'y'.repeat(100_000)}` })).toBe(
      'The text field can be at most 20,000 characters.',
    );
    expect(refusal('cloze', { text: '{{c1::x}}', extra: 'e'.repeat(100_000) })).toBe(
      'The extra field can be at most 20,000 characters.',
    );
  });
});

describe('note types', () => {
  it.each([undefined, null, '', 'Basic', 'image', 'cloze ', 3, {}])('refuses the unknown type %j', (type) => {
    expect(refusal(type, { front: 'a', back: 'b' })).toBe(messages.noteTypeUnknown);
  });

  it('refuses fields of the wrong type (cloze fields on a basic note and the reverse)', () => {
    expect(refusal('basic', { text: '{{c1::a}}' })).toBe('These fields do not fit a basic note.');
    expect(refusal('cloze', { front: 'a', back: 'b' })).toBe('These fields do not fit a cloze note.');
  });
});

describe('cloze notes', () => {
  it('one deletion: the question blanks it as [...], the answer shows it in bold', () => {
    expect(cloze('The capital of France is {{c1::Paris}}.')).toEqual([
      {
        card_type: 'cloze',
        ord: 0,
        question: 'The capital of France is [...].',
        answer: 'The capital of France is **Paris**.',
      },
    ]);
  });

  it('a hint is shown in the blank', () => {
    expect(cloze('{{c1::Canberra::city}} is the capital of Australia.')[0]).toMatchObject({
      question: '[city] is the capital of Australia.',
      answer: '**Canberra** is the capital of Australia.',
    });
  });

  it('one card per distinct number, in number order, each blanking only its own and filling in the others', () => {
    const cards = cloze('{{c2::Mitochondria}} make {{c1::ATP}} by {{c3::oxidative phosphorylation::process}}.');
    expect(cards.map((card) => [card.card_type, card.ord, card.question, card.answer])).toEqual([
      [
        'cloze',
        0,
        'Mitochondria make [...] by oxidative phosphorylation.',
        'Mitochondria make **ATP** by oxidative phosphorylation.',
      ],
      [
        'cloze',
        1,
        '[...] make ATP by oxidative phosphorylation.',
        '**Mitochondria** make ATP by oxidative phosphorylation.',
      ],
      ['cloze', 2, 'Mitochondria make ATP by [process].', 'Mitochondria make ATP by **oxidative phosphorylation**.'],
    ]);
  });

  it('several deletions of one number make one card that blanks all of them', () => {
    const cards = cloze('Primary colours: {{c1::red}}, {{c1::yellow::colour}} and {{c2::blue}}.');
    expect(cards).toHaveLength(2);
    expect(cards[0]).toEqual({
      card_type: 'cloze',
      ord: 0,
      question: 'Primary colours: [...], [colour] and blue.',
      answer: 'Primary colours: **red**, **yellow** and blue.',
    });
    expect(cards[1]?.question).toBe('Primary colours: red, yellow and [...].');
  });

  it('numbers need not start at 1 or be consecutive: ord is the number minus one', () => {
    expect(cloze('{{c3::a}} {{c500::b}}').map((card) => card.ord)).toEqual([2, 499]);
  });

  it('extra follows the answer after a blank line, never the question', () => {
    const [card] = cloze('{{c1::Paris}} is in France.', 'It has about **2 million** people.');
    expect(card?.question).toBe('[...] is in France.');
    expect(card?.answer).toBe('**Paris** is in France.\n\nIt has about **2 million** people.');
    expect(cloze('{{c1::x}}', '   ')[0]?.answer).toBe('**x**');
  });

  it('keeps markdown inside and around a deletion', () => {
    const [card] = cloze('- **Bold {{c1::_word_}}** and `code`\n- {{c2::[link](https://example.org)}}');
    expect(card?.question).toBe('- **Bold [...]** and `code`\n- [link](https://example.org)');
    expect(card?.answer).toBe('- **Bold **_word_**** and `code`\n- [link](https://example.org)');
  });

  it('keeps math inside a deletion, braces and all: a }} inside math does not end the deletion', () => {
    const [card] = cloze('The root is {{c1::$\\frac{1}{\\sqrt{2}}$}} here.');
    expect(card?.question).toBe('The root is [...] here.');
    expect(card?.answer).toBe('The root is **$\\frac{1}{\\sqrt{2}}$** here.');
    const [display] = cloze('$$\n{{c1::x^{2^{n}}}}\n$$ and {{c2::$a_{i_{j}}$::subscript}}');
    expect(display?.question).toBe('$$\n[...]\n$$ and $a_{i_{j}}$');
    expect(display?.answer).toBe('$$\n**x^{2^{n}}**\n$$ and $a_{i_{j}}$');
  });

  it('keeps math around a deletion and escaped braces inside one', () => {
    const [card] = cloze('$$E = {{c1::mc^2}}$$ and $\\{ {{c2::\\{1, 2\\}}} \\}$');
    expect(card?.question).toBe('$$E = [...]$$ and $\\{ \\{1, 2\\} \\}$');
    expect(card?.answer).toBe('$$E = **mc^2**$$ and $\\{ \\{1, 2\\} \\}$');
  });

  it('a :: inside braces is not a hint', () => {
    expect(cloze('{{c1::$f{a::b}$::hint}}')[0]).toMatchObject({ question: '[hint]', answer: '**$f{a::b}$**' });
  });

  it('nested deletions make a card each, as in Anki', () => {
    const cards = cloze('{{c1::Paris is the capital of {{c2::France}}}}.');
    expect(cards.map((card) => [card.question, card.answer])).toEqual([
      ['[...].', '**Paris is the capital of France**.'],
      ['Paris is the capital of [...].', 'Paris is the capital of **France**.'],
    ]);
  });

  it('spaces at the edge of a deletion stay outside the bold, so markdown still bolds it', () => {
    expect(cloze('a{{c1:: b }}c')[0]?.answer).toBe('a **b** c');
  });

  it('{{ that is not a cloze opener is plain text', () => {
    expect(cloze('Templates use {{Front}} and {{c::x}} and {{c1:x}}; {{c1::real}}')[0]?.question).toBe(
      'Templates use {{Front}} and {{c::x}} and {{c1:x}}; [...]',
    );
  });

  it('reads the upper-case C and a leading zero as Anki does', () => {
    expect(cloze('{{C1::a}} {{c02::b}}').map((card) => card.ord)).toEqual([0, 1]);
  });

  it.each([
    ['plain text', 'No deletion here.', 'Add at least one cloze deletion, like {{c1::answer}}.'],
    ['an opener that is not a cloze', '{{Front}}', 'Add at least one cloze deletion, like {{c1::answer}}.'],
    ['number 0', '{{c0::x}}', 'Cloze number 0 is not allowed: numbers go from 1 to 500.'],
    ['number 501', 'a {{c1::y}} {{c501::x}}', 'Cloze number 501 is not allowed: numbers go from 1 to 500.'],
    [
      'a huge number',
      '{{c99999999999999999999::x}}',
      'Cloze number 99999999999999999999 is not allowed: numbers go from 1 to 500.',
    ],
    ['an unclosed deletion', 'The {{c1::answer is here.', 'A cloze deletion {{c1::… is not closed: end it with }}.'],
    ['a single closing brace', '{{c2::answer}', 'A cloze deletion {{c2::… is not closed: end it with }}.'],
    ['an unclosed inner brace', '{{c1::$\\frac{1}{2$}}', 'A cloze deletion {{c1::… is not closed: end it with }}.'],
    ['an unclosed nested deletion', '{{c1::a {{c2::b}}', 'A cloze deletion {{c1::… is not closed: end it with }}.'],
    ['an empty deletion', 'x {{c1::}}', 'Cloze deletion {{c1::}} is empty: write its answer after the two colons.'],
    [
      'a deletion of spaces with a hint',
      'x {{c4::  ::hint}}',
      'Cloze deletion {{c4::}} is empty: write its answer after the two colons.',
    ],
  ])('refuses %s', (_name, text, detail) => {
    expect(refusal('cloze', { text })).toBe(detail);
  });

  it('refuses nesting deeper than the limit', () => {
    const deep = (levels: number) => `${'{{c1::'.repeat(levels)}x${'}}'.repeat(levels)}`;
    expect(cloze(deep(noteLimits.maxClozeNesting))).toHaveLength(1);
    expect(refusal('cloze', { text: deep(noteLimits.maxClozeNesting + 1) })).toBe(
      'Cloze deletions can be nested at most 8 deep.',
    );
  });

  it.each([
    [{ text: '' }, 'The text field cannot be empty.'],
    [{}, 'The text field cannot be empty.'],
    [{ text: '{{c1::a}}', extra: 5 }, 'The extra field must be text.'],
    [{ text: '{{c1::a}}', back: 'b' }, 'These fields do not fit a cloze note.'],
  ])('refuses cloze fields %j', (fields, detail) => {
    expect(refusal('cloze', fields)).toBe(detail);
  });

  it('an empty or missing extra is accepted', () => {
    expect(checkNote('cloze', { text: '{{c1::a}}', extra: '' }).ok).toBe(true);
    const result = checkNote('cloze', { text: '{{c1::a}}' });
    expect(result.ok && result.note).toEqual({ type: 'cloze', fields: { text: '{{c1::a}}' } });
  });

  it('renderNote gives the same cards as checkNote', () => {
    const fields = { text: 'a {{c1::b}} {{c2::c::h}}', extra: 'e' };
    expect(renderNote({ type: 'cloze', fields })).toEqual(cardsOf('cloze', fields));
  });

  it('makes up to 500 cards from one note', () => {
    const text = Array.from({ length: 500 }, (_, n) => `{{c${n + 1}::w${n}}}`).join(' ');
    const cards = cloze(text);
    expect(cards).toHaveLength(500);
    expect(cards[499]).toMatchObject({ ord: 499, question: expect.stringMatching(/w498 \[\.\.\.\]$/) });
  });
});

describe('hostile cloze text is parsed in one pass', () => {
  // Each input would make a backtracking pattern such as /\{\{c(\d+)::(.*?)(::(.*?))?\}\}/ work hard; the
  // parser's answer must still be exact (no time is asserted: bench/ measures).
  it.each([
    ['many openers never closed', '{{c1::'.repeat(3000), 'Cloze deletions can be nested at most 8 deep.'],
    [
      'many hints never closed',
      '{{c1::a::{{c1::'.repeat(1000),
      'A cloze deletion {{c1::… is not closed: end it with }}.',
    ],
    [
      'braces that never close',
      `{{c1::${'{'.repeat(19_000)}`,
      'A cloze deletion {{c1::… is not closed: end it with }}.',
    ],
    ['colons everywhere', `{{c1::${':'.repeat(19_000)}`, 'A cloze deletion {{c1::… is not closed: end it with }}.'],
    ['openers without numbers', '{{c'.repeat(6000), 'Add at least one cloze deletion, like {{c1::answer}}.'],
    ['backslashes', `{{c1::${'\\'.repeat(19_999)}`, 'A cloze deletion {{c1::… is not closed: end it with }}.'],
  ])('%s', (_name, text, detail) => {
    expect(refusal('cloze', { text: text.slice(0, noteLimits.maxFieldLength) })).toBe(detail);
  });

  it('thousands of deletions of one number', () => {
    const text = '{{c1::a}}'.repeat(2000);
    const [card] = cloze(text);
    expect(card?.question).toBe('[...]'.repeat(2000));
  });

  it('parseCloze returns the tree and the numbers', () => {
    expect(parseCloze('a {{c2::b::h}} {{c1::c {{c2::d}}}}')).toEqual({
      ok: true,
      numbers: [1, 2],
      nodes: [
        { kind: 'text', text: 'a ' },
        { kind: 'cloze', number: 2, hint: 'h', children: [{ kind: 'text', text: 'b' }] },
        { kind: 'text', text: ' ' },
        {
          kind: 'cloze',
          number: 1,
          hint: null,
          children: [
            { kind: 'text', text: 'c ' },
            { kind: 'cloze', number: 2, hint: null, children: [{ kind: 'text', text: 'd' }] },
          ],
        },
      ],
    });
  });
});

describe('nextClozeNumber', () => {
  it.each([
    ['', 1],
    ['no cloze', 1],
    ['{{c1::a}}', 2],
    ['{{c3::a}} {{c1::b}}', 4],
    ['{{c1:a}} {{c}}', 1],
    ['{{c500::a}}', 500],
  ])('%j → %i', (text, next) => {
    expect(nextClozeNumber(text)).toBe(next);
  });
});
