import type { Deck, SubscriptionStatus } from '@flashcards/shared/api-types';
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

/** A free account with `remaining` of its 10 generations left. */
export const freeQuota = (remaining: number): SubscriptionStatus => ({
  ...noSubscription,
  free_quota: 10,
  free_used: 10 - remaining,
  remaining,
});
