import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { CardState } from '../study-core/card-state';
import { ownedDeck } from '../study-core/owned-rows';

/** What the forecast reads of a deck. */
export interface ForecastDeck {
  exam_date: string | null;
  /** A number; a numeric string on PostgreSQL. */
  desired_retention: number | string;
}

/** What the forecast reads of a studied card: its FSRS stability and when it was last answered. */
export interface StudiedMemory {
  stability: number;
  last_review: number | null;
}

/** SQL for GET /decks/{id}/exam-forecast; every query scoped by the owner's user_id. */
export function createExamForecastRepo(db: Kysely<Database>) {
  return {
    deck(userId: string, deckId: string): Promise<ForecastDeck | undefined> {
      return ownedDeck(db, userId, deckId).select(['exam_date', 'desired_retention']).executeTakeFirst();
    },

    /** The deck's cards: how many there are, and the memory of each studied one (any state but new). */
    async cards(userId: string, deckId: string): Promise<{ total: number; studied: StudiedMemory[] }> {
      const [count, studied] = await Promise.all([
        db
          .selectFrom('cards')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('user_id', '=', userId)
          .where('deck_id', '=', deckId)
          .executeTakeFirst(),
        db
          .selectFrom('cards')
          .select(['stability', 'last_review'])
          .where('user_id', '=', userId)
          .where('deck_id', '=', deckId)
          .where('state', '!=', CardState.New)
          .execute(),
      ]);
      return { total: Number(count?.n ?? 0), studied };
    },
  };
}

export type ExamForecastRepo = ReturnType<typeof createExamForecastRepo>;
