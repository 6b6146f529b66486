import type { Kysely } from 'kysely';
import { preparedFirst } from '../../db/prepared-query';
import type { Database } from '../../db/schema';
import { ownedCard } from '../study-core/owned-rows';

// Every typed answer reads its card: built once per dialect, like the other reads of a study session.
const cardSides = preparedFirst<{ userId: string; cardId: string }, { question: string; answer: string }>((db, param) =>
  ownedCard(db, param('userId'), param('cardId')).select(['question', 'answer']),
);

/** SQL for checking typed answers: the user's card's two sides. */
export function createAnswerCheckRepo(db: Kysely<Database>) {
  return {
    cardSides: (userId: string, cardId: string) => cardSides(db, { userId, cardId }),
  };
}

export type AnswerCheckRepo = ReturnType<typeof createAnswerCheckRepo>;
