import type { Kysely } from 'kysely';
import { preparedFirst } from '../../db/prepared-query';
import { rowLimit } from '../../db/row-limit';
import type { Database, FsrsState } from '../../db/schema';
import { CardState } from '../study-core/card-state';
import type { Scope } from '../study-core/deck-scope';
import { cardsInScope, type ScopeParams } from '../study-core/owned-rows';

export interface RawStats {
  total: number;
  fresh: number;
  learning: number;
  due: number;
  reviewedToday: number;
  nextDue: number | null;
}

interface StatsParams extends ScopeParams {
  now: number;
  dayStart: number;
}

/** DeckStats' figures for every deck of the user (`oneDeck` false) or one of them, as one row. */
function statsQuery(oneDeck: boolean) {
  return preparedFirst<StatsParams, StatsRow>((db, param) => {
    const cards = () => cardsInScope(db, param, oneDeck);
    const nextDue = (state: Exclude<FsrsState, typeof CardState.New>) =>
      cards()
        .select('due')
        .where('state', '=', state)
        .where('due', '>', param('now'))
        .orderBy('due')
        .limit(rowLimit(1));
    let reviewed = db
      .selectFrom('review_logs')
      .select((eb) => eb.fn.count<number | string>('card_id').distinct().as('n'))
      .where('user_id', '=', param('userId'))
      .where('reviewed_at', '>=', param('dayStart'))
      .where('undone_at', 'is', null);
    if (oneDeck) reviewed = reviewed.where('deck_id', '=', param('deckId') as string);
    const decks = db.selectFrom('decks').where('user_id', '=', param('userId'));
    return (oneDeck ? decks.where('id', '=', param('deckId') as string) : decks).select((eb) => [
      eb.fn.sum<number | string | null>('new_cards').as('fresh'),
      eb.fn.sum<number | string | null>('learning_cards').as('learning'),
      eb.fn.sum<number | string | null>('review_cards').as('review'),
      cards()
        .select((inner) => inner.fn.countAll<number | string>().as('n'))
        .where('state', '=', CardState.Review)
        .where('due', '<=', param('now'))
        .as('due_now'),
      reviewed.as('reviewed_today'),
      nextDue(CardState.Learning).as('next_learning'),
      nextDue(CardState.Review).as('next_review'),
      nextDue(CardState.Relearning).as('next_relearning'),
    ]);
  });
}

interface StatsRow {
  fresh: number | string | null;
  learning: number | string | null;
  review: number | string | null;
  due_now: number | string | null;
  reviewed_today: number | string | null;
  next_learning: number | string | null;
  next_review: number | string | null;
  next_relearning: number | string | null;
}

const statsOfAllDecks = statsQuery(false);
const statsOfOneDeck = statsQuery(true);

/** SQL for a deck's or all decks' study figures (GET /decks/stats, GET /decks/:id/stats), scoped by user_id. */
export function createDeckStatsRepo(db: Kysely<Database>) {
  return {
    /**
     * The figures of DeckStats without a pass over the cards, in one statement (statsQuery): the decks' card
     * counters, the index range of review cards due by now, one index seek per state for the earliest future due
     * time, and the review log's (user_id, reviewed_at) range for today.
     */
    async stats(scope: Scope, now: number, dayStart: number): Promise<RawStats> {
      const query = scope.deckId === null ? statsOfAllDecks : statsOfOneDeck;
      const row = await query(db, { userId: scope.userId, deckId: scope.deckId, now, dayStart });
      const fresh = Number(row?.fresh ?? 0);
      const learning = Number(row?.learning ?? 0);
      const review = Number(row?.review ?? 0);
      // A new card's due date is its creation time, not an appointment: only states 1 to 3 have a next due time.
      const futures = [row?.next_learning, row?.next_review, row?.next_relearning]
        .filter((due) => due !== null && due !== undefined)
        .map(Number);
      return {
        total: fresh + learning + review,
        fresh,
        learning,
        due: Number(row?.due_now ?? 0),
        reviewedToday: Number(row?.reviewed_today ?? 0),
        nextDue: futures.length > 0 ? Math.min(...futures) : null,
      };
    },
  };
}

export type DeckStatsRepo = ReturnType<typeof createDeckStatsRepo>;
