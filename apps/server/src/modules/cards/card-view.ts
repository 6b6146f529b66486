import type { Card } from '@flashcards/shared/api-types';
import { statusOf } from '../review/scheduler';
import type { CardViewRow } from './cards.repo';

/** A card row as the API's Card. */
export function toCard(row: CardViewRow): Card {
  return {
    _id: row.id,
    deck_id: row.deck_id,
    question: row.question,
    answer: row.answer,
    status: statusOf(row.state),
    due_date: new Date(row.due).toISOString(),
    created_at: new Date(row.created_at).toISOString(),
    reps: row.reps,
    lapses: row.lapses,
  };
}
