import type { Card, Deck, SubscriptionStatus } from '@flashcards/shared/api-types';
import { noSubscription } from '@flashcards/shared/plans';

/** A new, empty deck as the server answers it. */
export const biologyDeck: Deck = {
  _id: '65a1b2c3d4e5f6a7b8c9d0aa',
  name: 'Biology',
  daily_new_card_limit: 20,
  desired_retention: 0.9,
  card_count: 0,
  exam_date: null,
  tts: { question_lang: null, answer_lang: null, auto: false },
  class_id: null,
  linked: false,
  created_at: '2026-11-22T10:00:00.000Z',
};

/** A new basic card of the Biology deck, made and due at 2026-11-20 10:00 UTC, its own note; `fields` set the rest. */
export function newCard(fields: Pick<Card, '_id' | 'question' | 'answer'> & Partial<Card>): Card {
  const at = '2026-11-20T10:00:00.000Z';
  return {
    deck_id: biologyDeck._id,
    status: 'new',
    due_date: at,
    created_at: at,
    reps: 0,
    lapses: 0,
    note_id: fields._id,
    card_type: 'basic',
    ord: 0,
    source: null,
    ...fields,
  };
}

/** A free account with `remaining` of its 10 generations left. */
export const freeQuota = (remaining: number): SubscriptionStatus => ({
  ...noSubscription,
  free_quota: 10,
  free_used: 10 - remaining,
  remaining,
});
