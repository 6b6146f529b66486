import type { Card, CardMemory, CardSource, CardStatus } from '@flashcards/shared/api-types';
import type { CardType, OcclusionView } from '@flashcards/shared/notes';
import { isoTime } from '@flashcards/shared/time';
import type { Insertable, Selectable } from 'kysely';
import type { CardsTable, FsrsState } from '../../db/schema';

/**
 * The study core's shared vocabulary for one card: its FSRS states by name, the columns the API shows, a new card's
 * row, and the API's Card. Cards, decks, review and sharing all build on these; none imports another's service.
 */

/** ts-fsrs's `State` values as stored in `cards.state` and the review log: use these names, not bare numbers. */
export const CardState = {
  New: 0,
  Learning: 1,
  /** Long-term review: the API's status `due`. */
  Review: 2,
  Relearning: 3,
} as const satisfies Record<string, FsrsState>;

export type CardRow = Selectable<CardsTable>;
export type NewCardRow = Insertable<CardsTable>;

/** The FSRS state of one card, as stored in the cards table (times in epoch ms). */
export type SchedulingState = Pick<
  CardRow,
  'state' | 'due' | 'stability' | 'difficulty' | 'scheduled_days' | 'learning_steps' | 'reps' | 'lapses' | 'last_review'
>;

import type { FsrsMemory } from '@flashcards/shared/scheduler';

export { type FsrsMemory, fsrsMemoryOf } from '@flashcards/shared/scheduler';

/** A card that has never been reviewed, due from `now`. */
export function newCardState(now: number): SchedulingState {
  return {
    state: CardState.New,
    due: now,
    stability: 0,
    difficulty: 0,
    scheduled_days: 0,
    learning_steps: 0,
    reps: 0,
    lapses: 0,
    last_review: null,
  };
}

/**
 * A new card row: FSRS state "new", due from its creation. Without `noteId` the card is a basic note of its own,
 * whose id is the card's (`insertCards` writes that note); `kind` is its card type and ordinal within its note.
 */
export function newCardRow(
  ids: { id: string; userId: string; deckId: string; noteId?: string },
  text: { question: string; answer: string },
  now: number,
  kind: { card_type: CardType; ord: number; occlusion?: OcclusionView } = { card_type: 'basic', ord: 0 },
) {
  return {
    id: ids.id,
    user_id: ids.userId,
    deck_id: ids.deckId,
    note_id: ids.noteId ?? ids.id,
    card_type: kind.card_type,
    ord: kind.ord,
    question: text.question,
    answer: text.answer,
    occlusion: occlusionColumn(kind.occlusion),
    ...newCardState(now),
    first_reviewed_at: null,
    created_at: now,
    updated_at: now,
  } satisfies NewCardRow;
}

/** An occlusion card's `occlusion` as stored in cards.occlusion (null for other cards). */
export const occlusionColumn = (view: OcclusionView | undefined): string | null => (view ? JSON.stringify(view) : null);

/** The API's card status for an FSRS state. */
export function statusOf(state: FsrsState): CardStatus {
  switch (state) {
    case CardState.New:
      return 'new';
    case CardState.Learning:
      return 'learning';
    case CardState.Review:
      return 'due';
    case CardState.Relearning:
      return 'relearning';
  }
}

/** The columns the API's Card shows. */
export const cardViewColumns = [
  'id',
  'deck_id',
  'question',
  'answer',
  'state',
  'due',
  'created_at',
  'reps',
  'lapses',
  'note_id',
  'card_type',
  'ord',
  'occlusion',
  'source',
] as const satisfies readonly (keyof CardsTable)[];

export type CardViewRow = Pick<CardRow, (typeof cardViewColumns)[number]>;

/** A card row as the API's Card. */
/** A card's last answer time as the API shows it (DueCard `last_review`), null for a new card. */
/** A due card's FSRS memory as the API sends it (its reps and lapses are the card's own fields). */
export function memoryOf(row: Omit<FsrsMemory, 'reps' | 'lapses'>): CardMemory {
  return {
    stability: row.stability,
    difficulty: row.difficulty,
    scheduled_days: row.scheduled_days,
    learning_steps: row.learning_steps,
  };
}

export function lastReviewOf(row: { last_review: number | null }): string | null {
  return row.last_review === null ? null : isoTime(row.last_review);
}

export function toCard(row: CardViewRow): Card {
  return {
    _id: row.id,
    deck_id: row.deck_id,
    question: row.question,
    answer: row.answer,
    status: statusOf(row.state),
    due_date: isoTime(row.due),
    created_at: isoTime(row.created_at),
    reps: row.reps,
    lapses: row.lapses,
    note_id: row.note_id,
    card_type: row.card_type,
    ord: row.ord,
    ...(row.occlusion ? { occlusion: JSON.parse(row.occlusion) as OcclusionView } : {}),
    source: row.source ? (JSON.parse(row.source) as CardSource) : null,
  };
}
