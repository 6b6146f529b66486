import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { ownedCard } from '../study-core/owned-rows';

/** SQL for checking typed answers: the user's card's two sides. */
export function createAnswerCheckRepo(db: Kysely<Database>) {
  return {
    cardSides(userId: string, cardId: string): Promise<{ question: string; answer: string } | undefined> {
      return ownedCard(db, userId, cardId).select(['question', 'answer']).executeTakeFirst();
    },
  };
}

export type AnswerCheckRepo = ReturnType<typeof createAnswerCheckRepo>;
