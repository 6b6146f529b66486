import { type Kysely, sql } from 'kysely';
import { preparedQuery } from '../../db/prepared-query';
import type { Database } from '../../db/schema';
import { newCardRow } from './card-state';
import { type CardCounter, counterFor, insertCards, insertNoteRows } from './deck-counters';

/**
 * Linked copies of class decks (issue 38, migration 0017). A teacher's edit only bumps their deck's
 * `content_version`; each student's copy catches up at the student's next request for decks or cards, in one
 * transaction of set-based statements. A copy is claimed by moving its `synced_version` conditionally first, so two
 * requests (on any app server) never sync the same copy twice; the unique (copy, source) indexes back that up.
 */

interface BehindCopy {
  id: string;
  source_deck_id: string;
  teacher_id: string;
  version: number;
}

interface PendingCopy {
  class_id: string;
  source_deck_id: string;
  teacher_id: string;
  name: string;
  daily_new_card_limit: number;
  version: number;
  /** The student's copy; null when it is still to be made. */
  copy_id: string | null;
}

/**
 * The assigned decks of the user's classes whose copy is missing or behind the teacher's deck, in one statement.
 * Every linked copy belongs to a current membership (leaving unlinks it), so a user in no class costs one empty index
 * range of class_members_user.
 */
const pendingCopies = preparedQuery<{ userId: string }, PendingCopy>((db, param) =>
  db
    .selectFrom('class_members as member')
    .innerJoin('class_decks', 'class_decks.class_id', 'member.class_id')
    .innerJoin('decks as source', 'source.id', 'class_decks.deck_id')
    .leftJoin('decks as copy', (join) =>
      join
        .onRef('copy.user_id', '=', 'member.user_id')
        .onRef('copy.class_id', '=', 'class_decks.class_id')
        .onRef('copy.source_deck_id', '=', 'class_decks.deck_id'),
    )
    .select([
      'class_decks.class_id',
      'source.id as source_deck_id',
      'source.user_id as teacher_id',
      'source.name',
      'source.daily_new_card_limit',
      'source.content_version as version',
      'copy.id as copy_id',
    ])
    .where('member.user_id', '=', param('userId'))
    .where((eb) =>
      eb.or([
        eb('copy.id', 'is', null),
        eb('copy.synced_version', 'is', null),
        eb('copy.synced_version', '<', eb.ref('source.content_version')),
      ]),
    ),
);

export interface LinkedDecks {
  /** Makes the user's missing copies and brings every copy behind its teacher's deck up to date. */
  syncUser(userId: string): Promise<void>;
  /** True when the deck is one of the user's linked copies (its cards and notes are read-only). */
  isLinkedDeck(userId: string, deckId: string): Promise<boolean>;
  /** True when the card, or the note, is in one of the user's linked copies. */
  isLinkedCard(userId: string, cardId: string): Promise<boolean>;
  isLinkedNote(userId: string, noteId: string): Promise<boolean>;
}

export function createLinkedDecks(db: Kysely<Database>, deps: { newId: () => string; now: () => number }): LinkedDecks {
  const createCopies = async (userId: string, missing: readonly PendingCopy[]): Promise<void> => {
    const now = deps.now();
    await db
      .insertInto('decks')
      .values(
        missing.map((deck) => ({
          id: deps.newId(),
          user_id: userId,
          name: deck.name,
          daily_new_card_limit: deck.daily_new_card_limit,
          created_at: now,
          updated_at: now,
          class_id: deck.class_id,
          source_deck_id: deck.source_deck_id,
        })),
      )
      // Another request made the same copy first: theirs stands.
      .onConflict((conflict) =>
        conflict.columns(['user_id', 'class_id', 'source_deck_id']).where('source_deck_id', 'is not', null).doNothing(),
      )
      .execute();
  };

  const syncCopy = (userId: string, copy: BehindCopy) =>
    db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('decks')
        .set({ synced_version: copy.version })
        .where('user_id', '=', userId)
        .where('id', '=', copy.id)
        .where((eb) => eb.or([eb('synced_version', 'is', null), eb('synced_version', '<', copy.version)]))
        .executeTakeFirst();
      if (claimed.numUpdatedRows === 0n) return;
      const now = deps.now();
      const source = { userId: copy.teacher_id, deckId: copy.source_deck_id };

      // Cards whose teacher's card is gone, with their history (the teacher deleted the card or its note).
      const gone = await trx
        .deleteFrom('cards')
        .where('user_id', '=', userId)
        .where('deck_id', '=', copy.id)
        .where('source_card_id', 'is not', null)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('cards as t')
                .select('t.id')
                .whereRef('t.id', '=', 'cards.source_card_id')
                .where('t.deck_id', '=', source.deckId),
            ),
          ),
        )
        .returning('state')
        .execute();
      if (gone.length > 0) {
        const changes: Partial<Record<CardCounter, number>> = {};
        for (const { state } of gone) changes[counterFor(state)] = (changes[counterFor(state)] ?? 0) - 1;
        await trx
          .updateTable('decks')
          .set((eb) =>
            Object.fromEntries(
              Object.entries(changes).map(([column, delta]) => [column, eb(column as CardCounter, '+', delta)]),
            ),
          )
          .where('id', '=', copy.id)
          .execute();
      }
      await trx
        .deleteFrom('notes')
        .where('user_id', '=', userId)
        .where('deck_id', '=', copy.id)
        .where('source_note_id', 'is not', null)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('notes as t')
                .select('t.id')
                .whereRef('t.id', '=', 'notes.source_note_id')
                .where('t.deck_id', '=', source.deckId),
            ),
          ),
        )
        .execute();

      // Edited notes and cards: the text changes, the student's card ids, schedules and history stay.
      await trx
        .updateTable('notes')
        .set((eb) => ({
          fields: eb.selectFrom('notes as t').select('t.fields').whereRef('t.id', '=', 'notes.source_note_id'),
          updated_at: now,
        }))
        .where('user_id', '=', userId)
        .where('deck_id', '=', copy.id)
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('notes as t')
              .select('t.id')
              .whereRef('t.id', '=', 'notes.source_note_id')
              .whereRef('t.fields', '<>', 'notes.fields'),
          ),
        )
        .execute();
      // The teacher's card's column, read in the same statement (a correlated subquery).
      const sourceCard = <T>(column: 'question' | 'answer' | 'occlusion' | 'source') =>
        sql<T>`(select t.${sql.ref(column)} from cards t where t.id = cards.source_card_id)`;
      await trx
        .updateTable('cards')
        .set({
          question: sourceCard<string>('question'),
          answer: sourceCard<string>('answer'),
          occlusion: sourceCard<string | null>('occlusion'),
          source: sourceCard<string | null>('source'),
          updated_at: now,
        })
        .where('user_id', '=', userId)
        .where('deck_id', '=', copy.id)
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('cards as t')
              .select('t.id')
              .whereRef('t.id', '=', 'cards.source_card_id')
              .where(
                sql<boolean>`(t.question <> cards.question or t.answer <> cards.answer or coalesce(t.occlusion, '') <> coalesce(cards.occlusion, ''))`,
              ),
          ),
        )
        .execute();

      // New notes, then their cards (and new cards of notes the copy has, e.g. a cloze number added).
      const newNotes = await trx
        .selectFrom('notes as t')
        .select(['t.id', 't.type', 't.fields'])
        .where('t.user_id', '=', source.userId)
        .where('t.deck_id', '=', source.deckId)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('notes as n')
                .select('n.id')
                .where('n.deck_id', '=', copy.id)
                .whereRef('n.source_note_id', '=', 't.id'),
            ),
          ),
        )
        .execute();
      await insertNoteRows(
        trx,
        newNotes.map((note) => ({
          id: deps.newId(),
          user_id: userId,
          deck_id: copy.id,
          type: note.type,
          fields: note.fields,
          created_at: now,
          updated_at: now,
          source_note_id: note.id,
        })),
      );
      const newCards = await trx
        .selectFrom('cards as t')
        .innerJoin('notes as n', (join) =>
          join.onRef('n.source_note_id', '=', 't.note_id').on('n.deck_id', '=', copy.id),
        )
        .select([
          't.id',
          't.question',
          't.answer',
          't.card_type',
          't.ord',
          't.occlusion',
          't.source',
          'n.id as note_id',
        ])
        .where('t.user_id', '=', source.userId)
        .where('t.deck_id', '=', source.deckId)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('cards as c')
                .select('c.id')
                .where('c.deck_id', '=', copy.id)
                .whereRef('c.source_card_id', '=', 't.id'),
            ),
          ),
        )
        .orderBy('t.created_at')
        .orderBy('t.id')
        .execute();
      await insertCards(
        trx,
        newCards.map((card) => ({
          ...newCardRow({ id: deps.newId(), userId, deckId: copy.id, noteId: card.note_id }, card, now, {
            card_type: card.card_type,
            ord: card.ord,
          }),
          occlusion: card.occlusion,
          source: card.source,
          source_card_id: card.id,
        })),
        [],
      );
    });

  const linkedCard = (userId: string, id: string) =>
    db
      .selectFrom('cards')
      .innerJoin('decks', 'decks.id', 'cards.deck_id')
      .select('cards.id')
      .where('cards.user_id', '=', userId)
      .where('cards.id', '=', id)
      .where('decks.source_deck_id', 'is not', null)
      .executeTakeFirst();
  const linkedNote = (userId: string, id: string) =>
    db
      .selectFrom('notes')
      .innerJoin('decks', 'decks.id', 'notes.deck_id')
      .select('notes.id')
      .where('notes.user_id', '=', userId)
      .where('notes.id', '=', id)
      .where('decks.source_deck_id', 'is not', null)
      .executeTakeFirst();

  return {
    async syncUser(userId) {
      let pending = await pendingCopies(db, { userId });
      if (pending.length === 0) return;
      const missing = pending.filter((row) => row.copy_id === null);
      if (missing.length > 0) {
        await createCopies(userId, missing);
        pending = await pendingCopies(db, { userId });
      }
      for (const row of pending) {
        if (row.copy_id === null) continue;
        await syncCopy(userId, {
          id: row.copy_id,
          source_deck_id: row.source_deck_id,
          teacher_id: row.teacher_id,
          version: row.version,
        });
      }
    },

    async isLinkedDeck(userId, deckId) {
      const row = await db
        .selectFrom('decks')
        .select('id')
        .where('user_id', '=', userId)
        .where('id', '=', deckId)
        .where('source_deck_id', 'is not', null)
        .executeTakeFirst();
      return row !== undefined;
    },

    async isLinkedCard(userId, cardId) {
      return (await linkedCard(userId, cardId)) !== undefined;
    },

    async isLinkedNote(userId, noteId) {
      return (await linkedNote(userId, noteId)) !== undefined;
    },
  };
}
