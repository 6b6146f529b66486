import { describe, expect, it } from 'vitest';
import goodCards from '../../../../test/fixtures/offline-generator/good-cards.json';
import junkCards from '../../../../test/fixtures/offline-generator/junk-cards.json';
import { isGenericWord, junkReasons } from './card-quality';

// Each junk shape the issue reported (and the ones found on the bench's real documents) is one case of
// junk-cards.json (rule, question, answer); good-cards.json holds cards the rules must keep.
describe('junk rules', () => {
  it.each(junkCards)('%s: "%s" → "%s"', (rule, question, answer) => {
    expect(junkReasons({ question, answer })).toContain(rule);
  });

  it.each(goodCards)('keeps the good card "%s" → "%s"', (question, answer) => {
    expect(junkReasons({ question, answer })).toEqual([]);
  });

  it('calls the most frequent words of English generic (SUBTLEX-US), and key terms not', () => {
    for (const word of ['item', 'line', 'later', 'please', 'application', 'the'])
      expect(isGenericWord(word)).toBe(true);
    for (const word of ['mitochondria', 'photosynthesis', 'serialization', 'Theodosius', 'glucose'])
      expect(isGenericWord(word)).toBe(false);
  });
});
