import type { Kysely, Transaction } from 'kysely';
import { inGroupCommit } from '../../db/group-commit';
import { preparedFirst, preparedQuery } from '../../db/prepared-query';
import { rowLimit } from '../../db/row-limit';
import type { Database, ReviewLogsTable } from '../../db/schema';
import { countReview } from '../stats/stats.repo';
import {
  type CardRow,
  type CardViewRow,
  cardViewColumns,
  fsrsMemoryOf,
  type SchedulingState,
} from '../study-core/card-state';
import { countClassReviews } from '../study-core/class-card-stats';
import { adjustDeckCounters, counterFor } from '../study-core/deck-counters';
import { ownedCard } from '../study-core/owned-rows';
import { burySiblings, releaseSiblings } from '../study-core/siblings';

/** The card's scheduling fields before a review, kept with the review (review_logs.card_before) for undo. */
export interface CardSnapshot extends SchedulingState {
  first_reviewed_at: number | null;
}

export function snapshotOf(card: CardRow): CardSnapshot {
  return {
    state: card.state,
    due: card.due,
    ...fsrsMemoryOf(card),
    last_review: card.last_review,
    first_reviewed_at: card.first_reviewed_at,
  };
}

/** What an undo found: the restored card, no such card, nothing to undo, or a review that raced it. */
export type UndoOutcome = { card: CardViewRow } | 'card_not_found' | 'nothing_to_undo' | 'conflict';

class UndoRaced extends Error {}

/**
 * A card row with its deck's desired retention (a number; a numeric string on PostgreSQL) and exam date
 * (study-core/exam-date.ts).
 */
export type CardToReview = CardRow & { desired_retention: number | string; exam_date: string | null };

const cardToReview = preparedFirst<{ userId: string; cardId: string }, CardToReview>((db, param) =>
  db
    .selectFrom('cards')
    .innerJoin('decks', (join) =>
      join.onRef('decks.id', '=', 'cards.deck_id').onRef('decks.user_id', '=', 'cards.user_id'),
    )
    .selectAll('cards')
    .select(['decks.desired_retention', 'decks.exam_date'])
    .where('cards.user_id', '=', param('userId'))
    .where('cards.id', '=', param('cardId')),
);

/** A review-log row as a review writes it (not undone; its card snapshot is added by reviewCard). */
export type ReviewLogRow = Omit<ReviewLogsTable, 'undone_at' | 'card_before'>;

/** What a review decided for the card it read: its next state and review-log row, at `now`. */
export interface ReviewDecision {
  next: SchedulingState;
  log: ReviewLogRow;
  now: number;
  /** Until when the card's new and long-term siblings are held back (the next study day's start). */
  buryUntil: number;
}

type ReviewedCardParams = SchedulingState & {
  first_reviewed_at: number;
  updated_at: number;
  userId: string;
  cardId: string;
  repsBefore: number;
};

/** The card's new scheduling state, if its reps are still `repsBefore`; the card as updated. */
const reviewedCard = preparedFirst<ReviewedCardParams, CardViewRow>((db, param) =>
  db
    .updateTable('cards')
    .set({
      state: param('state'),
      due: param('due'),
      stability: param('stability'),
      difficulty: param('difficulty'),
      scheduled_days: param('scheduled_days'),
      learning_steps: param('learning_steps'),
      reps: param('reps'),
      lapses: param('lapses'),
      last_review: param('last_review'),
      first_reviewed_at: param('first_reviewed_at'),
      updated_at: param('updated_at'),
    })
    .where('user_id', '=', param('userId'))
    .where('id', '=', param('cardId'))
    .where('reps', '=', param('repsBefore'))
    .returning(cardViewColumns),
);

const insertReviewLog = preparedQuery<ReviewLogRow & { card_before: string }, never>((db, param) =>
  db.insertInto('review_logs').values({
    id: param('id'),
    user_id: param('user_id'),
    deck_id: param('deck_id'),
    card_id: param('card_id'),
    reviewed_at: param('reviewed_at'),
    rating: param('rating'),
    state_before: param('state_before'),
    state_after: param('state_after'),
    due_before: param('due_before'),
    due_after: param('due_after'),
    stability: param('stability'),
    difficulty: param('difficulty'),
    scheduled_days: param('scheduled_days'),
    elapsed_days: param('elapsed_days'),
    card_before: param('card_before'),
    typed: param('typed'),
    verdict: param('verdict'),
  }),
);

/** Moves the card to `next` if it is still as read (same reps), with its deck's counters; null if it was not. */
async function moveCard(
  trx: Transaction<Database>,
  before: CardToReview,
  next: SchedulingState,
  firstReviewedAt: number,
  now: number,
): Promise<CardViewRow | null> {
  const after = await reviewedCard(trx, {
    ...next,
    first_reviewed_at: firstReviewedAt,
    updated_at: now,
    userId: before.user_id,
    cardId: before.id,
    repsBefore: before.reps,
  });
  if (!after) return null;
  const [from, to] = [counterFor(before.state), counterFor(next.state)];
  if (from !== to) {
    await adjustDeckCounters(trx, { userId: before.user_id, deckId: before.deck_id }, { [from]: -1, [to]: 1 });
  }
  return after;
}

/** Counts a logged review in the statistics' rollup. */
function countLogged(trx: Transaction<Database>, row: ReviewLogRow) {
  return countReview(
    trx,
    {
      userId: row.user_id,
      deckId: row.deck_id,
      reviewedAt: row.reviewed_at,
      rating: row.rating,
      stateBefore: row.state_before,
    },
    1,
  );
}

/** What became of one synced answer of a card (docs/api.md, POST /reviews/sync). */
export type SyncedAnswer = 'applied' | 'superseded' | 'duplicate' | 'taken';

/** A card's synced answers: the card as they left it, and each answer's outcome in the order given. */
export interface SyncedCard {
  card: CardToReview;
  outcomes: SyncedAnswer[];
}

class SyncRaced extends Error {}

/** One applied answer of a card, oldest first: the card before it, and where its log row is if this sync wrote it. */
interface AppliedAnswer {
  id: string;
  reviewedAt: number;
  before: CardToReview;
  /** Index in the sync's new rows, or null for a row already in the log. */
  row: number | null;
  /** Index in the sync's answers, for an answer of this sync. */
  answer?: number;
}

/** An answer of this sync that lost to a newer one: its row among the new rows and its index among the answers. */
interface LostAnswer {
  row: number;
  answer: number;
}

/** Orders answers made concurrently: the later one wins, a tie goes to the greater id. */
function after(answer: { id: string; reviewedAt: number }, other: { id: string; reviewedAt: number }): boolean {
  return answer.reviewedAt > other.reviewedAt || (answer.reviewedAt === other.reviewedAt && answer.id > other.id);
}

/**
 * The card's applied answers since the oldest `base` of the sync's answers (read only when an answer has a base
 * older than the card's latest review), so that a concurrent answer can take the card back to its base.
 */
async function appliedHistory(
  trx: Transaction<Database>,
  card: CardToReview,
  answers: readonly { base?: number | null }[],
) {
  const bases = answers.filter((answer) => answer.base !== undefined).map((answer) => answer.base ?? -1);
  const oldest = bases.length === 0 ? null : Math.min(...bases);
  const applied: AppliedAnswer[] = [];
  if (oldest !== null && card.last_review !== null && oldest < card.last_review) {
    const logged = await trx
      .selectFrom('review_logs')
      .select(['id', 'reviewed_at', 'card_before'])
      .where('user_id', '=', card.user_id)
      .where('card_id', '=', card.id)
      .where('reviewed_at', '>', oldest)
      .where('undone_at', 'is', null)
      .where('card_before', 'is not', null)
      .orderBy('reviewed_at')
      .orderBy('id')
      .execute();
    for (const row of logged) {
      const snapshot = JSON.parse(row.card_before ?? '{}') as CardSnapshot;
      applied.push({ id: row.id, reviewedAt: row.reviewed_at, before: { ...card, ...snapshot }, row: null });
    }
  }
  return {
    latest: (): AppliedAnswer | null => applied.at(-1) ?? null,
    /** The card as it was at `base`: before the first applied answer after it (null: before any). */
    stateAt(base: number | null, current: CardToReview): CardToReview {
      const first = applied.find((entry) => base === null || entry.reviewedAt > base);
      return first ? first.before : current;
    },
    /** Takes out, and answers, the applied answers after `base`. */
    dropAfter(base: number | null): AppliedAnswer[] {
      const keep = applied.filter((entry) => base !== null && entry.reviewedAt <= base);
      const dropped = applied.slice(keep.length);
      applied.length = 0;
      applied.push(...keep);
      return dropped;
    },
    push(entry: AppliedAnswer) {
      applied.push(entry);
    },
  };
}

/**
 * SQL for answering a card and taking the answer back: the card, its deck's counters, the review log and the
 * statistics' rollup change together in one transaction. Every query is scoped by user_id.
 */
export function createReviewAnswersRepo(db: Kysely<Database>) {
  return {
    /**
     * Reviews the user's card in one transaction: reads it (with its deck's desired retention), asks `decide` for its
     * next state and review-log row, and writes both if the card is still as read (same reps). On SQLite the
     * transaction is committed with the other reviews that arrived with it (db/group-commit.ts), each reading the card
     * as the one before left it. Answers the card as the update left it; `not_found` for no such card; `raced` when
     * another connection's review changed the card between the read and the write (PostgreSQL) and nothing was
     * written. `decide` may be called again if the group is run again. With `reviewId` (the client's id of the
     * answer, its log row's id): `{ logged }`, the card as it is and nothing written, when this user's log has it
     * already; `taken` when another user's log has it.
     */
    reviewCard(
      userId: string,
      cardId: string,
      decide: (before: CardToReview) => ReviewDecision,
      reviewId?: string,
    ): Promise<CardViewRow | { logged: CardToReview } | 'not_found' | 'raced' | 'taken'> {
      return inGroupCommit(db, async (trx) => {
        const before = await cardToReview(trx, { userId, cardId });
        if (!before) return 'not_found';
        if (reviewId !== undefined) {
          const logged = await trx
            .selectFrom('review_logs')
            .select('user_id')
            .where('id', '=', reviewId)
            .executeTakeFirst();
          if (logged) return logged.user_id === userId ? { logged: before } : 'taken';
        }
        const { next, log, now, buryUntil } = decide(before);
        const after = await moveCard(trx, before, next, before.first_reviewed_at ?? now, now);
        if (!after) return 'raced';
        await insertReviewLog(trx, { ...log, card_before: JSON.stringify(snapshotOf(before)) });
        await burySiblings(trx, before, buryUntil);
        await countLogged(trx, log);
        await countClassReviews(trx, before, { reviews: 1, failed: log.rating === 1 ? 1 : 0 });
        return after;
      });
    },

    /**
     * One card's answers given offline (POST /reviews/sync), `answers` oldest first, in one transaction; each answer's
     * client id is its review-log id. An id already in this user's log is `duplicate`, in another user's `taken`.
     * Each other answer is `superseded` if older than the card's latest applied review (`last_review`): logged,
     * not undoable, the card unmoved; otherwise `decide` schedules it from the card as the answers before it left it
     * (`applied`). The card is written once, if it is still as read (same reps); `raced` (nothing written) if another
     * connection changed the card or logged one of the ids meanwhile (PostgreSQL). `not_found`: no such card of the
     * user. Answers the card as left and each answer's outcome, in `answers` order.
     */
    syncCard<A extends { id: string; reviewedAt: number; base?: number | null }>(
      userId: string,
      cardId: string,
      answers: readonly A[],
      decide: (card: CardToReview, answer: A) => Omit<ReviewDecision, 'buryUntil'>,
    ): Promise<SyncedCard | 'not_found' | 'raced'> {
      return inGroupCommit(db, async (trx): Promise<SyncedCard | 'not_found'> => {
        const logged = await trx
          .selectFrom('review_logs')
          .select(['id', 'user_id'])
          .where(
            'id',
            'in',
            answers.map((answer) => answer.id),
          )
          .execute();
        const owners = new Map(logged.map((row) => [row.id, row.user_id]));
        const before = await cardToReview(trx, { userId, cardId });
        if (!before) return 'not_found';
        const replay = await appliedHistory(trx, before, answers);
        let card = before;
        let now: number | null = null;
        const rows: (ReviewLogRow & { card_before: string | null })[] = [];
        /** Answers that no longer hold once a concurrent answer rewinds the card: ids already logged, or rows here. */
        const supersededLogged: string[] = [];
        /**
         * This sync's answers that lost to newer answers of the card, by time: the base their device's chain of answers
         * started from, and each answer of the chain with the card it would have started from.
         */
        const lost = new Map<number, { rootBase: number | null; chain: LostAnswer[]; after: CardToReview }>();
        const outcomes: SyncedAnswer[] = [];
        const apply = (answer: A, index: number, from: CardToReview, row = rows.length) => {
          const decision = decide(from, answer);
          replay.push({ id: answer.id, reviewedAt: answer.reviewedAt, before: from, row, answer: index });
          rows[row] = { ...decision.log, card_before: JSON.stringify(snapshotOf(from)) };
          outcomes[index] = 'applied';
          now = decision.now;
          return { ...from, ...decision.next, first_reviewed_at: from.first_reviewed_at ?? answer.reviewedAt };
        };
        for (const [index, answer] of answers.entries()) {
          const owner = owners.get(answer.id);
          if (owner !== undefined) {
            outcomes[index] = owner === userId ? 'duplicate' : 'taken';
            continue;
          }
          const latest = replay.latest();
          const base = answer.base;
          const concurrent =
            base !== undefined && latest !== null && card.last_review !== null && (base ?? -1) < card.last_review;
          if (concurrent && latest !== null && after(answer, latest)) {
            // Newer than every answer made since its base: the card goes back to its base, those answers yield. A
            // base that is one of this sync's lost answers brings that chain of one device's answers back first.
            const chain = base === null ? undefined : lost.get(base);
            const rewindTo = chain ? chain.rootBase : (base ?? null);
            const start = replay.stateAt(rewindTo, card);
            for (const dropped of replay.dropAfter(rewindTo)) {
              if (dropped.row === null) supersededLogged.push(dropped.id);
              else {
                const row = rows[dropped.row];
                if (row) rows[dropped.row] = { ...row, card_before: null };
                if (dropped.answer !== undefined) outcomes[dropped.answer] = 'superseded';
              }
            }
            card = start;
            for (const link of chain?.chain ?? []) {
              const previous = answers[link.answer];
              if (previous) card = apply(previous, link.answer, card, link.row);
            }
            card = apply(answer, index, card);
            continue;
          }
          if (concurrent || (card.last_review !== null && answer.reviewedAt < card.last_review)) {
            const decision = decide(card, answer);
            if (base !== undefined) {
              const previous = base === null ? undefined : lost.get(base);
              const from = previous ? previous.after : replay.stateAt(base, card);
              const next = decide(from, answer).next;
              lost.set(answer.reviewedAt, {
                rootBase: previous ? previous.rootBase : base,
                chain: [...(previous?.chain ?? []), { row: rows.length, answer: index }],
                after: { ...from, ...next, first_reviewed_at: from.first_reviewed_at ?? answer.reviewedAt },
              });
            }
            rows.push({
              ...decision.log,
              state_after: card.state,
              due_after: card.due,
              stability: card.stability,
              difficulty: card.difficulty,
              scheduled_days: card.scheduled_days,
              card_before: null,
            });
            outcomes[index] = 'superseded';
            continue;
          }
          card = apply(answer, index, card);
        }
        if (now !== null) {
          const state = { state: card.state, due: card.due, ...fsrsMemoryOf(card), last_review: card.last_review };
          const firstReviewedAt = card.first_reviewed_at ?? now;
          if (!(await moveCard(trx, before, state, firstReviewedAt, now))) throw new SyncRaced();
        }
        if (supersededLogged.length > 0) {
          // The log keeps them (statistics and fitting count them); without a snapshot they are no longer undoable.
          await trx
            .updateTable('review_logs')
            .set({ card_before: null })
            .where('user_id', '=', userId)
            .where('id', 'in', supersededLogged)
            .execute();
        }
        if (rows.length > 0) {
          const inserted = await trx
            .insertInto('review_logs')
            .values(rows)
            .onConflict((conflict) => conflict.column('id').doNothing())
            .returning('id')
            .execute();
          // Another connection logged one of these ids after our read: roll this card back and read again.
          if (inserted.length < rows.length) throw new SyncRaced();
          for (const row of rows) await countLogged(trx, row);
          // Superseded answers stay in the log, so class progress counts them as it counts applied ones.
          await countClassReviews(trx, before, {
            reviews: rows.length,
            failed: rows.filter((row) => row.rating === 1).length,
          });
        }
        return { card, outcomes };
      }).catch((error: unknown) => {
        if (error instanceof SyncRaced) return 'raced' as const;
        throw error;
      });
    },

    /**
     * Takes back the card's latest review, in one transaction: marks that review-log row undone (the log is never
     * rewritten otherwise) and puts the card back as it was before it, counters included. Only the latest review
     * can be undone, once: a second undo of the same card finds its latest review undone.
     */
    async undoLatestReview(userId: string, cardId: string, now: number, dayStart: number): Promise<UndoOutcome> {
      try {
        return await db.transaction().execute(async (trx): Promise<UndoOutcome> => {
          const card = await ownedCard(trx, userId, cardId).selectAll().executeTakeFirst();
          if (!card) return 'card_not_found';
          const latest = await trx
            .selectFrom('review_logs')
            .select(['id', 'undone_at', 'card_before', 'deck_id', 'reviewed_at', 'rating', 'state_before'])
            .where('user_id', '=', userId)
            .where('card_id', '=', cardId)
            .orderBy('reviewed_at', 'desc')
            .orderBy('id', 'desc')
            .limit(rowLimit(1))
            .executeTakeFirst();
          if (!latest || latest.undone_at !== null || latest.card_before === null) return 'nothing_to_undo';
          const marked = await trx
            .updateTable('review_logs')
            .set({ undone_at: now })
            .where('id', '=', latest.id)
            .where('undone_at', 'is', null)
            .executeTakeFirst();
          if (marked.numUpdatedRows === 0n) return 'nothing_to_undo';
          // The statistics' rollup drops the undone answer too.
          await countReview(
            trx,
            {
              userId,
              deckId: latest.deck_id,
              reviewedAt: latest.reviewed_at,
              rating: latest.rating,
              stateBefore: latest.state_before,
            },
            -1,
          );
          await countClassReviews(
            trx,
            { ...card, deck_id: latest.deck_id },
            { reviews: -1, failed: latest.rating === 1 ? -1 : 0 },
          );
          const before = JSON.parse(latest.card_before) as CardSnapshot;
          const restored = await trx
            .updateTable('cards')
            .set({ ...before, updated_at: now })
            .where('user_id', '=', userId)
            .where('id', '=', cardId)
            .where('reps', '=', card.reps)
            .executeTakeFirst();
          // A review of this card committed between our read and write: roll the mark back too.
          if (restored.numUpdatedRows === 0n) throw new UndoRaced();
          const [from, to] = [counterFor(card.state), counterFor(before.state)];
          if (from !== to) {
            await adjustDeckCounters(trx, { userId, deckId: card.deck_id }, { [from]: -1, [to]: 1 });
          }
          await releaseSiblings(trx, card, dayStart);
          const row = await ownedCard(trx, userId, cardId).select(cardViewColumns).executeTakeFirstOrThrow();
          return { card: row };
        });
      } catch (error) {
        if (error instanceof UndoRaced) return 'conflict';
        throw error;
      }
    },
  };
}

export type ReviewAnswersRepo = ReturnType<typeof createReviewAnswersRepo>;
