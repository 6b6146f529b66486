import { setImmediate as nextTurn } from 'node:timers/promises';
import type { DeckSettings, DeckSettingsUpdate, DeckTts } from '@flashcards/shared/api-types';
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { preparedQuery } from '../../db/prepared-query';
import { rowLimit } from '../../db/row-limit';
import type { Database, DecksTable, FsrsState } from '../../db/schema';
import { CardState } from '../study-core/card-state';
import { adjustDeckCounters, type CardCounter, counterFor } from '../study-core/deck-counters';
import { hasDeck, ownedDeck } from '../study-core/owned-rows';

export type DeckRow = Omit<Selectable<DecksTable>, 'content_version' | 'synced_version'> & { card_count: number };

/** A deck with what a session of it would show now (GET /decks' `counts`), before the daily limit is applied. */
export type DeckRowWithQueue = DeckRow & {
  learning_due: number;
  review_due: number;
  introduced_today: number;
  /** New cards, and long-term cards due, held back today because a sibling was answered (study-core/siblings.ts). */
  buried_new: number;
  buried_review_due: number;
};

/** Cards deleted per transaction when a deck goes. */
const DELETE_BATCH = 200;

const deckColumns = [
  'id',
  'user_id',
  'name',
  'daily_new_card_limit',
  'created_at',
  'updated_at',
  'new_cards',
  'learning_cards',
  'review_cards',
  'desired_retention',
  'exam_date',
  'tts_question_lang',
  'tts_answer_lang',
  'tts_auto',
  'class_id',
  'source_deck_id',
] as const satisfies readonly (keyof DecksTable)[];

type QueueCountsRow = Selectable<DecksTable> & {
  learning_due: number | string | null;
  review_due: number | string | null;
  introduced_today: number | string | null;
  buried_new: number | string | null;
  buried_review_due: number | string | null;
};

/**
 * Every deck of the user with, in the same statement, its learning and relearning cards due, its long-term cards due
 * (each an index range of cards_user_deck_state_due that holds only due cards) and the new cards it introduced since
 * the study day began (the review queue's rule, study-core/daily-limit.ts; due-queue.repo's allowance query).
 */
const decksWithQueueCounts = preparedQuery<{ userId: string; now: number; dayStart: number }, QueueCountsRow>(
  (db, param) => {
    const introduced = db
      .selectFrom('review_logs')
      .select((eb) => ['deck_id', eb.fn.count<number | string>('card_id').distinct().as('n')])
      .where('user_id', '=', param('userId'))
      .where('reviewed_at', '>=', param('dayStart'))
      .where('state_before', '=', CardState.New)
      .where('undone_at', 'is', null)
      .groupBy('deck_id');
    return db
      .selectFrom('decks')
      .leftJoin(introduced.as('introduced'), 'introduced.deck_id', 'decks.id')
      .select(deckColumns.map((column) => `decks.${column}` as const))
      .select((eb) => {
        const dueIn = (states: FsrsState[]) =>
          eb
            .selectFrom('cards')
            .select((inner) => inner.fn.countAll<number | string>().as('n'))
            .whereRef('cards.user_id', '=', 'decks.user_id')
            .whereRef('cards.deck_id', '=', 'decks.id')
            .where('cards.state', 'in', states)
            .where('cards.due', '<=', param('now'));
        // Held-back siblings, from the partial index of buried cards (cards_user_buried): only today's are counted.
        const buried = () =>
          eb
            .selectFrom('cards')
            .select((inner) => inner.fn.countAll<number | string>().as('n'))
            .whereRef('cards.user_id', '=', 'decks.user_id')
            .whereRef('cards.deck_id', '=', 'decks.id')
            .where('cards.buried_until', 'is not', null)
            .where('cards.buried_until', '>', param('now'));
        return [
          dueIn([CardState.Learning, CardState.Relearning]).as('learning_due'),
          dueIn([CardState.Review]).as('review_due'),
          'introduced.n as introduced_today',
          buried().where('cards.state', '=', CardState.New).as('buried_new'),
          buried()
            .where('cards.state', '=', CardState.Review)
            .where('cards.due', '<=', param('now'))
            .as('buried_review_due'),
        ];
      })
      .where('decks.user_id', '=', param('userId'))
      .orderBy('decks.created_at')
      .orderBy('decks.id');
  },
);

/** SQL for decks. Every query is scoped by the owner's user_id: another user's deck is simply not there. */
export function createDecksRepo(db: Kysely<Database>) {
  return {
    /** How many decks and cards the user has (cards from the decks' counters: no scan of the cards table). */
    async usage(userId: string): Promise<{ decks: number; cards: number }> {
      const row = await db
        .selectFrom('decks')
        .select((eb) => [
          eb.fn.countAll<number | string>().as('decks'),
          eb.fn
            .coalesce(
              eb.fn.sum<number | string>(eb('new_cards', '+', eb('learning_cards', '+', eb.ref('review_cards')))),
              eb.lit(0),
            )
            .as('cards'),
        ])
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return { decks: Number(row?.decks ?? 0), cards: Number(row?.cards ?? 0) };
    },

    async list(userId: string): Promise<DeckRow[]> {
      const rows = await db
        .selectFrom('decks')
        .select(deckColumns)
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(withCardCount);
    },

    /** The user's decks, oldest first, with the figures of GET /decks' `counts` (decksWithQueueCounts). */
    async listWithQueueCounts(userId: string, now: number, dayStart: number): Promise<DeckRowWithQueue[]> {
      const rows = await decksWithQueueCounts(db, { userId, now, dayStart });
      return rows.map(({ learning_due, review_due, introduced_today, buried_new, buried_review_due, ...deck }) => ({
        ...withCardCount(deck),
        learning_due: Number(learning_due ?? 0),
        review_due: Number(review_due ?? 0),
        introduced_today: Number(introduced_today ?? 0),
        buried_new: Number(buried_new ?? 0),
        buried_review_due: Number(buried_review_due ?? 0),
      }));
    },

    async find(userId: string, id: string): Promise<DeckRow | undefined> {
      const row = await ownedDeck(db, userId, id).select(deckColumns).executeTakeFirst();
      return row ? withCardCount(row) : undefined;
    },

    /** True when the user has a deck with this id. */
    exists(userId: string, id: string): Promise<boolean> {
      return hasDeck(db, userId, id);
    },

    async insert(row: Insertable<DecksTable>): Promise<void> {
      await db.insertInto('decks').values(row).execute();
    },

    async setDailyNewCardLimit(userId: string, id: string, limit: number, now: number): Promise<boolean> {
      const result = await db
        .updateTable('decks')
        .set({ daily_new_card_limit: limit, updated_at: now })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * Sets the given settings, and with `dueCap` brings the deck's studied cards due later forward to it; answers the
     * deck's settings afterwards, or undefined when there is no such deck.
     */
    async updateSettings(
      userId: string,
      id: string,
      settings: DeckSettingsUpdate,
      now: number,
      dueCap: number | null = null,
    ): Promise<DeckSettings | undefined> {
      const { tts, ...plain } = settings;
      const columns: Updateable<DecksTable> = { ...plain, updated_at: now };
      if (tts?.question_lang !== undefined) columns.tts_question_lang = tts.question_lang;
      if (tts?.answer_lang !== undefined) columns.tts_answer_lang = tts.answer_lang;
      if (tts?.auto !== undefined) columns.tts_auto = tts.auto ? 1 : 0;
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('decks')
          .set(columns)
          .where('user_id', '=', userId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (result.numUpdatedRows === 0n) return undefined;
        if (dueCap !== null) {
          // A new exam date: the deck's studied cards due after it come due by then (study-core/exam-date.ts).
          await trx
            .updateTable('cards')
            .set({ due: dueCap, updated_at: now })
            .where('user_id', '=', userId)
            .where('deck_id', '=', id)
            .where('state', '!=', CardState.New)
            .where('due', '>', dueCap)
            .execute();
        }
        const row = await ownedDeck(trx, userId, id)
          .select([
            'daily_new_card_limit',
            'desired_retention',
            'exam_date',
            'tts_question_lang',
            'tts_answer_lang',
            'tts_auto',
          ])
          .executeTakeFirstOrThrow();
        return {
          daily_new_card_limit: row.daily_new_card_limit,
          desired_retention: Number(row.desired_retention),
          exam_date: row.exam_date,
          tts: ttsOf(row),
        };
      });
    },

    /**
     * Deletes the deck; its cards, review log, shares and import records go with it (foreign keys cascade). The
     * cards go first, DELETE_BATCH per transaction with the deck's counters kept, then its imported note guids,
     * yielding between batches: a deck of 200,000 cards never holds the event loop (or SQLite's one writer) for more
     * than one batch. Stopped halfway, what is left is a smaller, consistent deck.
     */
    async delete(userId: string, id: string): Promise<boolean> {
      for (;;) {
        const deleted = await db.transaction().execute(async (trx) => {
          const rows = await trx
            .deleteFrom('cards')
            .where(
              'id',
              'in',
              trx
                .selectFrom('cards')
                .select('id')
                .where('user_id', '=', userId)
                .where('deck_id', '=', id)
                .limit(rowLimit(DELETE_BATCH)),
            )
            .returning('state')
            .execute();
          const changes: Record<CardCounter, number> = { new_cards: 0, learning_cards: 0, review_cards: 0 };
          for (const row of rows) changes[counterFor(row.state)] -= 1;
          await adjustDeckCounters(trx, { userId, deckId: id }, changes);
          return rows.length;
        });
        if (deleted < DELETE_BATCH) break;
        await nextTurn();
      }
      // The Anki note guids imported into the deck (one per note: 199,000 for a large package) go the same way.
      for (;;) {
        const result = await db
          .deleteFrom('imported_notes')
          .where('user_id', '=', userId)
          .where(
            'guid',
            'in',
            db
              .selectFrom('imported_notes')
              .select('guid')
              .where('user_id', '=', userId)
              .where('deck_id', '=', id)
              .limit(rowLimit(DELETE_BATCH * 5)),
          )
          .executeTakeFirst();
        if (result.numDeletedRows < BigInt(DELETE_BATCH * 5)) break;
        await nextTurn();
      }
      const result = await db.deleteFrom('decks').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

export type DecksRepo = ReturnType<typeof createDecksRepo>;

/** A deck row's read-aloud settings as the API shows them. */
export function ttsOf(row: Pick<DecksTable, 'tts_question_lang' | 'tts_answer_lang'> & { tts_auto: number }): DeckTts {
  return { question_lang: row.tts_question_lang, answer_lang: row.tts_answer_lang, auto: Number(row.tts_auto) === 1 };
}

/** The deck's card count, from its counters (migration 0003). */
function withCardCount(row: Omit<DeckRow, 'card_count'>): DeckRow {
  return { ...row, card_count: row.new_cards + row.learning_cards + row.review_cards };
}
