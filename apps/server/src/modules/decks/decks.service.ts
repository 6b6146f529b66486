import type { Deck, DeckSettings, DeckSettingsUpdate, DeckSummary, DeckWithCards } from '@flashcards/shared/api-types';
import { limits } from '@flashcards/shared/limits';
import { isoTime } from '@flashcards/shared/time';
import type { Clock } from '../../adapters/clock';
import { type IdGenerator, isId } from '../../adapters/ids';
import type { RateLimiter } from '../../adapters/rate-limit/rate-limiter';
import { errors, rateLimited } from '../../http/app-error';
import type { CardsRepo } from '../cards/cards.repo';
import { toCard } from '../study-core/card-state';
import { examDueCap, isExamDateAhead } from '../study-core/exam-date';
import { studyDayStart } from '../study-core/study-day';
import type { UserLimits } from '../study-core/user-limits';
import { type DeckRow, type DeckRowWithQueue, type DecksRepo, ttsOf } from './decks.repo';

export interface DecksServiceDeps {
  decks: DecksRepo;
  cards: Pick<CardsRepo, 'listByDeck'>;
  clock: Clock;
  newId: IdGenerator;
  defaultDailyNewCardLimit: number;
  userLimits: UserLimits;
  /** DECK_DELETE_RATE_LIMIT_PER_HOUR: deck deletions per user (429 past it). */
  deleteLimiter: RateLimiter;
}

/** GET /decks/{id} carries at most this many cards; the rest are paged through GET /decks/{id}/cards. */
export const MAX_INLINE_DECK_CARDS = 2000;

export function toDeck(
  row: Pick<DeckRow, 'id' | 'name' | 'daily_new_card_limit' | 'card_count' | 'created_at'> &
    Partial<
      Pick<
        DeckRow,
        | 'desired_retention'
        | 'exam_date'
        | 'tts_question_lang'
        | 'tts_answer_lang'
        | 'tts_auto'
        | 'class_id'
        | 'source_deck_id'
      >
    >,
): Deck {
  return {
    _id: row.id,
    name: row.name,
    daily_new_card_limit: row.daily_new_card_limit,
    card_count: row.card_count,
    created_at: isoTime(row.created_at),
    desired_retention: Number(row.desired_retention ?? limits.defaultDesiredRetention),
    exam_date: row.exam_date ?? null,
    tts: ttsOf({
      tts_question_lang: row.tts_question_lang ?? null,
      tts_answer_lang: row.tts_answer_lang ?? null,
      tts_auto: row.tts_auto ?? 0,
    }),
    // A copy whose teacher's deck is gone is an ordinary deck again.
    class_id: row.source_deck_id ? (row.class_id ?? null) : null,
    linked: Boolean(row.source_deck_id),
  };
}

/**
 * A deck with what a session of it would show now: learning and long-term cards due, and new cards up to what is
 * left of today's daily new-card limit (the review queue's rule, study-core/daily-limit.ts), held-back siblings left
 * out.
 */
export function toDeckSummary(row: DeckRowWithQueue): DeckSummary {
  const allowance = Math.max(0, row.daily_new_card_limit - row.introduced_today);
  return {
    ...toDeck(row),
    counts: {
      new: Math.min(row.new_cards - row.buried_new, allowance),
      learning: row.learning_due,
      due: row.review_due - row.buried_review_due,
    },
  };
}

/** Decks of one user. A deck id that is malformed, missing or someone else's is the same 404. */
export function createDecksService(deps: DecksServiceDeps) {
  const { decks, cards, clock } = deps;

  const findOwned = async (userId: string, deckId: string): Promise<DeckRow> => {
    const row = isId(deckId) ? await decks.find(userId, deckId) : undefined;
    if (!row) throw errors.deckNotFound();
    return row;
  };

  return {
    /** Every deck with its counts; "today" is the learner's study day in `timeZone`. */
    async list(userId: string, timeZone = 'UTC'): Promise<DeckSummary[]> {
      const now = clock.now();
      return (await decks.listWithQueueCounts(userId, now, studyDayStart(now, timeZone))).map(toDeckSummary);
    },

    async get(userId: string, deckId: string): Promise<DeckWithCards> {
      const row = await findOwned(userId, deckId);
      const rows = await cards.listByDeck(userId, row.id, MAX_INLINE_DECK_CARDS + 1);
      const flashcards = rows.slice(0, MAX_INLINE_DECK_CARDS).map(toCard);
      return { ...toDeck(row), flashcards, flashcards_truncated: rows.length > MAX_INLINE_DECK_CARDS };
    },

    async create(userId: string, name: string): Promise<Deck> {
      await deps.userLimits.assertRoom(userId, { decks: 1 });
      const now = clock.now();
      const row = {
        id: deps.newId(),
        user_id: userId,
        name,
        daily_new_card_limit: deps.defaultDailyNewCardLimit,
        created_at: now,
        updated_at: now,
      };
      await decks.insert(row);
      return toDeck({ ...row, card_count: 0 });
    },

    /**
     * Sets the fields given and answers the deck's settings. An exam date must be today or later in the learner's
     * `timeZone` (422 exam_date_in_past); setting one brings the studied cards due after it forward to it, as if
     * they had been answered under it; null clears it (the cards stay where they are).
     */
    async updateSettings(
      userId: string,
      deckId: string,
      settings: DeckSettingsUpdate,
      timeZone = 'UTC',
    ): Promise<DeckSettings> {
      const now = clock.now();
      if (typeof settings.exam_date === 'string' && !isExamDateAhead(settings.exam_date, now, timeZone)) {
        throw errors.examDateInPast();
      }
      const dueCap = typeof settings.exam_date === 'string' ? examDueCap(settings.exam_date, timeZone, now) : null;
      const updated = isId(deckId) ? await decks.updateSettings(userId, deckId, settings, now, dueCap) : undefined;
      if (!updated) throw errors.deckNotFound();
      return updated;
    },

    async delete(userId: string, deckId: string): Promise<void> {
      const waitMs = await deps.deleteLimiter.hit(userId);
      if (waitMs !== null) throw rateLimited(waitMs);
      const deleted = isId(deckId) && (await decks.delete(userId, deckId));
      if (!deleted) throw errors.deckNotFound();
    },
  };
}

export type DecksService = ReturnType<typeof createDecksService>;
