import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkNote } from '@flashcards/shared/notes';
import { describe, expect, it } from 'vitest';
import { clozeDeletions } from '../cloze-drafts';
import { tagEnglish } from './nlp';
import { clozeOfList, clozeOfTerm, isGuessableBlank } from './offline-cloze';
import { generateOfflineCards } from './offline-generator';
import { stopwords } from './text-analysis';

const biology =
  'Photosynthesis is the process by which green plants use sunlight to make glucose from carbon dioxide and water. ' +
  'Chlorophyll is the green pigment that absorbs light energy. The human body has 206 bones.\n\n' +
  'The three domains of life are:\n- Bacteria\n- Archaea\n- Eukarya\n\n' +
  'If the membrane breaks, the cell dies within minutes.';

// Real documents of bench/generator-quality/documents.ts that ship in node_modules (the man pages need man-db).
const nodeModules = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../../node_modules');
const realDocuments = [
  'fastify/docs/Reference/Lifecycle.md',
  'fastify/docs/Guides/Getting-Started.md',
  'ts-fsrs/README.md',
].map((file) => ({ path: file, text: readFileSync(path.join(nodeModules, file), 'utf8') }));

// What the grammar gives away: universal tags of articles, pronouns, auxiliaries, prepositions, conjunctions.
const structural = new Set(['DET', 'PRON', 'AUX', 'ADP', 'CCONJ', 'SCONJ', 'PART']);

describe('offline generator, cloze style', () => {
  it('blanks the defined term, the number and each list item, one number per item', () => {
    const notes = generateOfflineCards(biology, 40, 'cloze');
    expect(notes.map((note) => note.cloze)).toEqual([
      '{{c1::Photosynthesis}} is the process by which green plants use sunlight to make glucose from carbon dioxide and water.',
      '{{c1::Chlorophyll}} is the green pigment that absorbs light energy.',
      'The human body has {{c1::206}} bones.',
      'The three domains of life are:\n- {{c1::Bacteria}}\n- {{c2::Archaea}}\n- {{c3::Eukarya}}',
    ]);
  });

  it('gives each note the question and answer of its first card, as the shared renderer writes them', () => {
    for (const note of generateOfflineCards(biology, 40, 'cloze')) {
      const checked = checkNote('cloze', { text: note.cloze });
      if (!checked.ok) throw new Error(`not a cloze note: ${note.cloze}`);
      expect({ question: note.question, answer: note.answer }).toEqual({
        question: checked.cards[0]?.question,
        answer: checked.cards[0]?.answer,
      });
    }
    expect(generateOfflineCards(biology, 40, 'cloze')[0]).toMatchObject({
      question:
        '[...] is the process by which green plants use sunlight to make glucose from carbon dioxide and water.',
      answer:
        '**Photosynthesis** is the process by which green plants use sunlight to make glucose from carbon dioxide and water.',
    });
  });

  it('mixed: blanks and lists become cloze notes, definitions and causes stay questions', () => {
    const cards = generateOfflineCards(biology, 40, 'mixed');
    expect(cards.map((card) => card.cloze ?? card.question)).toEqual([
      'What is photosynthesis?',
      'What is chlorophyll?',
      'The human body has {{c1::206}} bones.',
      'The three domains of life are:\n- {{c1::Bacteria}}\n- {{c2::Archaea}}\n- {{c3::Eukarya}}',
      'What happens if the membrane breaks?',
    ]);
  });

  it('basic: no cloze notes at all', () => {
    expect(generateOfflineCards(biology, 40, 'basic').some((card) => card.cloze !== undefined)).toBe(false);
  });

  it('a vocabulary list has nothing to blank: its cards stay basic rather than none', () => {
    const cards = generateOfflineCards(
      'lunes - Monday\nmartes - Tuesday\nmiércoles - Wednesday\njueves - Thursday',
      40,
      'cloze',
    );
    expect(cards).toHaveLength(4);
    expect(cards.every((card) => card.cloze === undefined)).toBe(true);
  });

  it.each(realDocuments)('$path: every deletion is one fact a learner could not guess from the grammar', ({ text }) => {
    const notes = generateOfflineCards(text, 60, 'cloze');
    // Lifecycle.md is mostly a diagram: its two whole sentences with a key term are all it has to blank.
    expect(notes.length).toBeGreaterThanOrEqual(2);
    for (const note of notes) {
      const deletions = clozeDeletions(note.cloze ?? '');
      expect(deletions?.length, note.cloze).toBeGreaterThan(0);
      // Numbered from 1 in order, each number one card; a sentence holds at most three.
      const numbers = [...new Set(deletions?.map((deletion) => deletion.number))];
      expect(numbers, note.cloze).toEqual(numbers.map((_, k) => k + 1));
      if (!(note.cloze ?? '').includes('\n')) {
        expect(numbers.length, note.cloze).toBeLessThanOrEqual(3);
        // No two blanks side by side: one term cut in two would give each half away.
        expect(note.cloze, note.cloze).not.toMatch(/\}\}[^\p{L}\p{N}]*\{\{c/u);
      }
      const plain = (note.cloze ?? '').replace(/\{\{c\d+::|\}\}/g, '');
      const tags = tagEnglish(plain);
      for (const { answer } of deletions ?? []) {
        const tokens = answer.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
        expect(tokens.length, note.cloze).toBeGreaterThan(0);
        expect(
          tokens.every((token) => stopwords.has(token)),
          note.cloze,
        ).toBe(false);
        expect(answer, note.cloze).not.toMatch(/^(the|a|an)\s/i);
        // One fact: a short phrase, not a clause or a list.
        expect(tokens.length, note.cloze).toBeLessThanOrEqual(8);
        expect(answer, note.cloze).not.toMatch(/[;.!?]\s|,\s+(and|or)\s/);
        if (tokens.length === 1) {
          const tag = tags.find((token) => token.value.toLowerCase() === tokens[0])?.pos;
          expect(structural.has(tag ?? ''), `${answer} (${tag}) in ${note.cloze}`).toBe(false);
        }
      }
    }
  });
});

describe('several deletions in one sentence', () => {
  it('blanks the other key concepts of a long sentence too, one number each in reading order', () => {
    const text = realDocuments.find((doc) => doc.path.includes('Getting-Started'))?.text ?? '';
    const notes = generateOfflineCards(text, 60, 'cloze').map((note) => note.cloze);
    expect(notes).toContain(
      'As with {{c1::JavaScript}}, where everything is an object, with Fastify everything is a {{c2::plugin}}.',
    );
    expect(notes).toContain(
      'The {{c1::database connection}} needs to be available before the {{c2::server}} is accepting {{c3::connections}}.',
    );
  });
});

describe('cloze rules', () => {
  it.each([
    ['the', 'The cell divides.'],
    ['is', 'Osmosis is the movement of water.'],
    ['and', 'Salt and water mix.'],
    ['of', 'The movement of water.'],
    ['they', 'They divide.'],
    ['can', 'Cells can divide.'],
    ['because', 'It stops because the fuel runs out.'],
    ['by the', 'The process by the cell.'],
  ])('“%s” is guessable from the grammar', (answer, sentence) => {
    expect(isGuessableBlank(answer, sentence, 'en')).toBe(true);
  });

  it.each([
    ['photosynthesis', 'Photosynthesis makes glucose.', 'en'],
    ['1066', 'The battle was fought in 1066.', 'en'],
    ['mitochondria', 'The mitochondria release energy.', 'en'],
    ['fotosíntesis', 'La fotosíntesis produce glucosa.', 'es'],
  ] as const)('“%s” is a fact', (answer, sentence, language) => {
    expect(isGuessableBlank(answer, sentence, language)).toBe(false);
  });

  it('in another language, a deletion of its function words alone is guessable', () => {
    expect(isGuessableBlank('la', 'La fotosíntesis produce glucosa.', 'es')).toBe(true);
    expect(isGuessableBlank('der', 'Der Hund bellt laut.', 'de')).toBe(true);
  });

  it('leaves an article and quotes outside the deletion', () => {
    expect(clozeOfTerm('The lexical comparison is a comparison of ASCII values.', 'The lexical comparison')).toBe(
      'The {{c1::lexical comparison}} is a comparison of ASCII values.',
    );
    expect(clozeOfTerm('Strings such as ‘ALPHA’ sort first.', '‘ALPHA’')).toBe(
      'Strings such as ‘{{c1::ALPHA}}’ sort first.',
    );
  });

  it('never makes a deletion of text that cloze syntax would misread', () => {
    expect(clozeOfTerm('The {{c1::x}} term is here.', 'term')).toBeNull();
    expect(clozeOfList('Parts:', ['a::b', 'c'])).toBeNull();
  });

  it('blanks a list item whole only when it is one short fact', () => {
    expect(clozeOfList('Parts:', ['nucleus', 'cell membrane'])).toBe(
      'Parts:\n- {{c1::nucleus}}\n- {{c2::cell membrane}}',
    );
    expect(clozeOfList('Steps:', ['read the whole file into memory before parsing it line by line', 'x'])).toBeNull();
  });
});
