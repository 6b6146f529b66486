import type { DueCard } from '@flashcards/shared/api-types';
import { fireEvent, screen } from '@testing-library/react';
import { type fakeServer, json } from './fake-server';
import { biologyDeck } from './fixtures';
import { testUser } from './render-app';

const past = new Date(Date.now() - 3_600_000).toISOString();
const soon = new Date(Date.now() + 600_000).toISOString();

/** A basic card of the Biology deck, due an hour ago, that either answer brings back in 10 minutes. */
export function dueCard(id: string, question: string, answer: string, extra: Partial<DueCard> = {}): DueCard {
  return {
    _id: id,
    source: null,
    deck_id: biologyDeck._id,
    question,
    answer,
    status: 'due',
    due_date: past,
    created_at: past,
    reps: 3,
    lapses: 0,
    note_id: id,
    card_type: 'basic',
    ord: 0,
    next_due: { pass: soon, fail: soon },
    last_review: null,
    memory: { stability: 0, difficulty: 0, scheduled_days: 0, learning_steps: 0 },
    ...extra,
  };
}

/** Starts a review of `deckName` from the deck list and waits for its first card's `question`. */
export async function openReviewSession(deckName: string, question: string): Promise<void> {
  // The first render loads the page's code, which a machine busy with other tests takes longer over.
  fireEvent.click(await screen.findByRole('button', { name: `Review Deck: ${deckName}` }, { timeout: 50_000 }));
  await screen.findByText(question);
}

/** The requests a review of `deck` makes before its first answer: the user, the deck list, empty stats, `cards` due. */
export function reviewRoutes(deck: { _id: string }, cards: readonly DueCard[]): Parameters<typeof fakeServer>[0] {
  return {
    'GET /users/me': () => json(200, testUser),
    'GET /decks': () => json(200, [deck]),
    'GET /decks/stats': () => json(200, {}),
    [`GET /decks/${deck._id}/stats`]: () => json(200, {}),
    'GET /cards/due': () => json(200, cards),
  };
}
