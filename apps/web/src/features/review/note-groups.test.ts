import type { Card } from '@flashcards/shared/api-types';
import type { CardType } from '@flashcards/shared/notes';
import { describe, expect, it } from 'vitest';
import { newCard } from '../../../test/fixtures';
import { groupByNote } from './note-groups';

const card = (id: string, noteId: string, cardType: CardType, ord: number): Card =>
  newCard({ _id: id, note_id: noteId, card_type: cardType, ord, question: `Q ${id}`, answer: `A ${id}` });

const summary = (cards: Card[]) =>
  groupByNote(cards).map((group) => [group.noteId, group.type, group.firstNumber, group.cards.map((c) => c._id)]);

describe('groupByNote', () => {
  it('lists each note where its first card came, its cards by ord, numbered on from note to note', () => {
    expect(
      summary([
        card('b', 'basic-note', 'basic', 0),
        // A cloze added by a later edit comes at the end of the deck, and before its siblings in the page here.
        card('z3', 'cloze-note', 'cloze', 2),
        card('r1', 'reversed-note', 'basic', 0),
        card('z1', 'cloze-note', 'cloze', 0),
        card('r2', 'reversed-note', 'reverse', 1),
        card('b2', 'other-basic', 'basic', 0),
      ]),
    ).toEqual([
      ['basic-note', 'basic', 1, ['b']],
      ['cloze-note', 'cloze', 2, ['z1', 'z3']],
      ['reversed-note', 'reversed', 4, ['r1', 'r2']],
      ['other-basic', 'basic', 6, ['b2']],
    ]);
  });

  it('tells the note type from its cards: one cloze card is a cloze note, a lone reverse card a reversed one', () => {
    expect(
      summary([card('z2', 'c', 'cloze', 1), card('r2', 'r', 'reverse', 1), card('o', 'o', 'occlusion', 0)]),
    ).toEqual([
      ['c', 'cloze', 1, ['z2']],
      ['r', 'reversed', 2, ['r2']],
      ['o', 'occlusion', 3, ['o']],
    ]);
  });

  it('does not reorder the cards it was given', () => {
    const cards = [card('z2', 'c', 'cloze', 1), card('z1', 'c', 'cloze', 0)];
    groupByNote(cards);
    expect(cards.map((c) => c._id)).toEqual(['z2', 'z1']);
  });
});
