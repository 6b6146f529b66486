import type { Card } from '@flashcards/shared/api-types';

export interface SessionCounts {
  new: number;
  learning: number;
  due: number;
}

/**
 * The session counts: new cards; learning (status learning or relearning); due (status due and due date
 * reached), over the cards still ahead in the session.
 */
export function sessionCounts(cards: readonly Card[], now: number): SessionCounts {
  const counts: SessionCounts = { new: 0, learning: 0, due: 0 };
  for (const card of cards) {
    if (card.status === 'new') counts.new++;
    else if (card.status === 'learning' || card.status === 'relearning') counts.learning++;
    else if (card.status === 'due' && Date.parse(card.due_date) <= now) counts.due++;
  }
  return counts;
}
