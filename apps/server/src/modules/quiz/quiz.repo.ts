import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { hasDeck } from '../study-core/owned-rows';

/** SQL for the quiz: a deck and its cards, only when the deck belongs to the user. */
export function createQuizRepo(db: Kysely<Database>) {
  return {
    async findDeckCards(userId: string, deckId: string): Promise<{ question: string; answer: string }[] | null> {
      if (!(await hasDeck(db, userId, deckId))) return null;
      return db
        .selectFrom('cards')
        .select(['question', 'answer'])
        .where('deck_id', '=', deckId)
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },
  };
}

export type QuizRepo = ReturnType<typeof createQuizRepo>;
