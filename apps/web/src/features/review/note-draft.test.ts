import { messages } from '@flashcards/shared/messages';
import { describe, expect, it } from 'vitest';
import { draftContent, draftOfNote, droppedClozes, previewCardTitle, previewDraft } from './note-draft';

describe('note drafts', () => {
  it('sends trimmed fields, a blank Extra left out', () => {
    expect(draftContent({ type: 'basic', first: ' Q ', second: ' A\n' })).toEqual({
      type: 'basic',
      fields: { front: 'Q', back: 'A' },
    });
    expect(draftContent({ type: 'cloze', first: ' {{c1::x}} ', second: '  ' })).toEqual({
      type: 'cloze',
      fields: { text: '{{c1::x}}' },
    });
    expect(draftContent({ type: 'cloze', first: '{{c1::x}}', second: ' more ' }).fields).toEqual({
      text: '{{c1::x}}',
      extra: 'more',
    });
  });

  it('reads a stored note back into the boxes; image occlusion is not written here', () => {
    expect(draftOfNote({ type: 'reversed', fields: { front: 'F', back: 'B' } })).toEqual({
      type: 'reversed',
      first: 'F',
      second: 'B',
    });
    expect(draftOfNote({ type: 'cloze', fields: { text: '{{c1::x}}' } })).toEqual({
      type: 'cloze',
      first: '{{c1::x}}',
      second: '',
    });
    expect(draftOfNote({ type: 'occlusion', fields: { image: 'm', masks: [], mode: 'hide_one' } })).toBeNull();
  });

  it('previews the cards the shared renderer makes, or why a cloze text makes none', () => {
    expect(previewDraft({ type: 'cloze', first: '  ', second: '' })).toEqual({ cards: [], problem: null });
    expect(previewDraft({ type: 'cloze', first: 'no deletion', second: '' })).toEqual({
      cards: [],
      problem: messages.clozeMissing,
    });
    expect(previewDraft({ type: 'cloze', first: '{{c1::open', second: '' }).problem).toBe(
      'A cloze deletion {{c1::… is not closed: end it with }}.',
    );
    const { cards } = previewDraft({ type: 'cloze', first: '{{c2::a::hint}} and {{c1::b}}', second: 'Extra' });
    expect(cards.map(({ ord, question, answer }) => ({ ord, question, answer }))).toEqual([
      { ord: 0, question: 'a and [...]', answer: 'a and **b**\n\nExtra' },
      { ord: 1, question: '[hint] and b', answer: '**a** and b\n\nExtra' },
    ]);
    expect(cards.map(previewCardTitle)).toEqual(['Card 1 (cloze 1)', 'Card 2 (cloze 2)']);
    const reversed = previewDraft({ type: 'reversed', first: 'F', second: '' }).cards;
    expect(reversed.map((card) => [card.question, card.answer])).toEqual([
      ['F', ''],
      ['', 'F'],
    ]);
    expect(reversed.map(previewCardTitle)).toEqual(['Card 1', 'Card 2 (reversed)']);
  });

  it('names the cloze numbers an edit takes out', () => {
    expect(droppedClozes('{{c1::a}} {{c2::b}} {{c3::c}}', '{{c1::a}} b {{c3::c}}')).toEqual([2]);
    expect(droppedClozes('{{c1::a}}', '{{c1::a}} {{c2::b}}')).toEqual([]);
    // While the new text does not parse, nothing is named (the preview says what is wrong).
    expect(droppedClozes('{{c1::a}}', '{{c1::a')).toEqual([]);
  });
});
