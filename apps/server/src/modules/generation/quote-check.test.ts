import { describe, expect, it } from 'vitest';
import { sameFactScore } from './deck-duplicates';
import { findQuote, quoteIndex } from './quote-check';

const pages = [
  { text: 'The heart pumps blood.\n\nArteries carry blood away from the heart to the body.', page: 1 },
  { text: 'Veins carry blood back to the heart. Capillaries join arteries to veins.', page: 2 },
];
const index = quoteIndex(pages);

describe('findQuote', () => {
  it('finds a quote whatever its spacing, case and punctuation, with its page and paragraph', () => {
    expect(findQuote(index, 'ARTERIES carry   blood, away from the heart -- to the body')).toEqual({
      passage: pages[0],
      paragraph: 'Arteries carry blood away from the heart to the body.',
    });
    expect(findQuote(index, 'veins carry blood back to the heart')?.passage.page).toBe(2);
  });

  it('allows edits up to a tenth of the quote, not more', () => {
    // 2 letters changed in 31 kept characters.
    expect(findQuote(index, 'Veins carry blod back to the hert.')?.passage.page).toBe(2);
    expect(findQuote(index, 'Veins carry lymph back to the lungs.')).toBeNull();
    expect(findQuote(index, 'The liver filters blood.')).toBeNull();
  });

  it('a quote across two pages is found on the first', () => {
    expect(findQuote(index, 'to the body. Veins carry blood back')?.passage.page).toBe(1);
  });

  it('never verifies an empty, an over-long or a pattern-like quote', () => {
    expect(findQuote(index, '')).toBeNull();
    expect(findQuote(index, ' ,.; ')).toBeNull();
    expect(findQuote(index, 'a'.repeat(100_000))).toBeNull();
    expect(findQuote(index, '(a+)+$')).toBeNull();
    expect(findQuote(index, '.*')).toBeNull();
    const regexLike = quoteIndex([{ text: 'Write ^(a|b)*$ to match any run of a and b, or (x+)+ for x.' }]);
    expect(findQuote(regexLike, 'write ^(A|B)*$ to match any RUN of a and b')).not.toBeNull();
  });

  it('reads ligatures and accents as the same letters', () => {
    const text = quoteIndex([{ text: 'The ﬁrst café opened in 1652.' }]);
    expect(findQuote(text, 'the first CAFÉ opened in 1652')).not.toBeNull();
  });
});

describe('sameFactScore', () => {
  it('the same fact in other words is a duplicate', () => {
    const generated = {
      question: 'What is photosynthesis?',
      answer: 'The process by which green plants use sunlight to make glucose from carbon dioxide and water',
    };
    const existing = {
      question: 'Define photosynthesis.',
      answer: 'How green plants make glucose out of water and carbon dioxide, using sunlight',
    };
    expect(sameFactScore(generated, existing)).toBeGreaterThan(0);
    expect(
      sameFactScore(
        { question: 'Which city is the capital of France?', answer: 'Paris' },
        { question: 'Capital of France?', answer: 'Paris.' },
      ),
    ).toBeGreaterThan(0);
  });

  it('another fact on the same topic is not', () => {
    expect(
      sameFactScore(
        { question: 'What is chlorophyll?', answer: 'The green pigment that absorbs light energy' },
        { question: 'What is photosynthesis?', answer: 'How green plants make glucose from sunlight' },
      ),
    ).toBe(0);
    expect(
      sameFactScore(
        { question: 'When did World War 1 start?', answer: '1914' },
        { question: 'When did World War 2 start?', answer: '1939' },
      ),
    ).toBe(0);
  });
});
