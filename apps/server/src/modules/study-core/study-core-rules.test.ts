import type { Card } from '@flashcards/shared/api-types';
import { fillMessage } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { describe, expect, it } from 'vitest';
import { refusalOf } from '../../../test/support/api-error';
import { CardState, fsrsMemoryOf, newCardRow, newCardState, statusOf, toCard } from './card-state';
import { newCardTakes } from './daily-limit';
import { deckScope, requireOwnDeck } from './deck-scope';
import { createUserLimits } from './user-limits';

// The study core's small rules on their own, each at its boundary: the daily new-card allowance, the per-user caps,
// the deck scope, and a card's states and API shape. The study day has its own file (study-day.test.ts).

const deckId = '0123456789abcdef01234567';
const now = Date.parse('2026-11-22T10:00:00Z');

describe('newCardTakes (the daily new-card limit)', () => {
  it('gives each deck what its limit leaves today, at most the room, and drops decks with nothing left', () => {
    expect(
      newCardTakes(
        [
          { deckId: 'a', dailyLimit: 20, introduced: 5 },
          { deckId: 'b', dailyLimit: 5, introduced: 5 },
          { deckId: 'c', dailyLimit: 5, introduced: 9 },
          { deckId: 'd', dailyLimit: 100, introduced: 0 },
          { deckId: 'e', dailyLimit: 1, introduced: 0 },
          { deckId: 'f', dailyLimit: 0, introduced: 0 },
        ],
        30,
      ),
    ).toEqual([
      { deckId: 'a', limit: 15 },
      { deckId: 'd', limit: 30 },
      { deckId: 'e', limit: 1 },
    ]);
  });

  it('gives nothing when there is no room', () => {
    expect(newCardTakes([{ deckId: 'a', dailyLimit: 20, introduced: 0 }], 0)).toEqual([]);
  });
});

describe('createUserLimits (per-user caps)', () => {
  const limits = (decks: number, cards: number) =>
    createUserLimits({ usage: async () => ({ decks, cards }) }, { maxDecks: 3, maxCards: 100 });

  it('lets an account fill its caps exactly, and refuses one more with the cap in the text', async () => {
    await limits(2, 99).assertRoom('u', { decks: 1, cards: 1 });
    expect(await refusalOf(limits(3, 0).assertRoom('u', { decks: 1 }))).toEqual({
      code: 'too_many_decks',
      detail: fillMessage(serverMessages.tooManyDecks, { max: 3 }),
    });
    expect(await refusalOf(limits(0, 90).assertRoom('u', { cards: 11 }))).toEqual({
      code: 'too_many_cards',
      detail: fillMessage(serverMessages.tooManyCardsInAccount, { max: 100 }),
    });
    await limits(0, 90).assertRoom('u', { cards: 10 });
  });

  it('lets an account past a cap do what adds nothing to it', async () => {
    await limits(5, 500).assertRoom('u', {});
    await limits(5, 50).assertRoom('u', { decks: 0, cards: 1 });
    await limits(1, 500).assertRoom('u', { decks: 1, cards: 0 });
  });

  it('answers the cards still allowed, never below zero', async () => {
    expect(await limits(0, 40).cardRoom('u')).toBe(60);
    expect(await limits(0, 100).cardRoom('u')).toBe(0);
    expect(await limits(0, 140).cardRoom('u')).toBe(0);
  });
});

describe('deckScope', () => {
  const owned = { exists: async (userId: string, id: string) => userId === 'u1' && id === deckId };

  it('is every deck without a deck id, and that deck once it is the user’s own', async () => {
    expect(await deckScope(owned, 'u1', undefined)).toEqual({ userId: 'u1', deckId: null });
    expect(await deckScope(owned, 'u1', deckId)).toEqual({ userId: 'u1', deckId });
  });

  it('answers deck_not_found alike for a malformed id, a missing deck and someone else’s', async () => {
    const notFound = { code: 'deck_not_found', detail: serverMessages.deckNotFound };
    expect(await refusalOf(deckScope(owned, 'u1', 'not-an-id'))).toEqual(notFound);
    expect(await refusalOf(deckScope(owned, 'u1', 'fedcba9876543210fedcba98'))).toEqual(notFound);
    expect(await refusalOf(requireOwnDeck(owned, 'u2', deckId))).toEqual(notFound);
  });
});

describe('card state', () => {
  it('names the FSRS states and maps each to its API status', () => {
    expect(CardState).toEqual({ New: 0, Learning: 1, Review: 2, Relearning: 3 });
    expect([0, 1, 2, 3].map((state) => statusOf(state as 0 | 1 | 2 | 3))).toEqual([
      'new',
      'learning',
      'due',
      'relearning',
    ]);
  });

  it('builds a new card due now, its note its own unless one is given', () => {
    const noMemory = { stability: 0, difficulty: 0, scheduled_days: 0, learning_steps: 0, reps: 0, lapses: 0 };
    expect(newCardState(now)).toEqual({ state: CardState.New, due: now, ...noMemory, last_review: null });
    const row = newCardRow({ id: 'c1', userId: 'u1', deckId }, { question: 'Q', answer: 'A' }, now);
    expect(row).toEqual({
      id: 'c1',
      user_id: 'u1',
      deck_id: deckId,
      note_id: 'c1',
      card_type: 'basic',
      ord: 0,
      occlusion: null,
      question: 'Q',
      answer: 'A',
      ...newCardState(now),
      first_reviewed_at: null,
      created_at: now,
      updated_at: now,
    });
    const cloze = newCardRow({ id: 'c2', userId: 'u1', deckId, noteId: 'n1' }, { question: 'Q', answer: 'A' }, now, {
      card_type: 'cloze',
      ord: 2,
    });
    expect({ note: cloze.note_id, type: cloze.card_type, ord: cloze.ord }).toEqual({
      note: 'n1',
      type: 'cloze',
      ord: 2,
    });
  });

  it('keeps the FSRS memory fields and nothing else', () => {
    const memory = { stability: 1, difficulty: 2, scheduled_days: 3, learning_steps: 4, reps: 5, lapses: 6 };
    expect(fsrsMemoryOf({ ...memory, state: 2, due: now } as typeof memory)).toEqual(memory);
  });

  it('shows a row as the API’s Card', () => {
    const card: Card = toCard({
      id: 'c1',
      deck_id: deckId,
      question: 'Q',
      answer: 'A',
      state: 3,
      due: now,
      created_at: now - 1000,
      reps: 4,
      lapses: 1,
      note_id: 'n1',
      card_type: 'basic',
      ord: 0,
      occlusion: null,
      source: null,
    });
    expect(card).toEqual({
      _id: 'c1',
      deck_id: deckId,
      question: 'Q',
      answer: 'A',
      status: 'relearning',
      due_date: '2026-11-22T10:00:00.000Z',
      created_at: '2026-11-22T09:59:59.000Z',
      reps: 4,
      lapses: 1,
      note_id: 'n1',
      card_type: 'basic',
      ord: 0,
      source: null,
    });
  });
});
