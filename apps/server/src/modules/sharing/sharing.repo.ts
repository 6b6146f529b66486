import type { Insertable, Kysely, Selectable } from 'kysely';
import { rowLimit } from '../../db/row-limit';
import type { Database, SharesTable } from '../../db/schema';
import type { NewCardRow } from '../study-core/card-state';
import { insertCards } from '../study-core/deck-counters';

export type ShareRow = Selectable<SharesTable>;

export interface SharedDeckRow extends ShareRow {
  deck_name: string;
  owner_name: string;
  card_count: number;
}

export interface ImportPlan {
  share: ShareRow;
  importerId: string;
  importId: string;
  deck: { id: string; name: string; daily_new_card_limit: number };
  now: number;
  /** Makes a new card row (with its own id) for the importer from an original's text. */
  copy: (text: { question: string; answer: string }) => NewCardRow;
}

/**
 * SQL for share links. The owner's queries are scoped by their user_id. A share is found by its code alone: the
 * unguessable code is the permission, and what it reveals (deck name, owner name, card count) is what the owner
 * chose to share; the copied cards are read scoped by the share's owner and deck.
 */
export function createSharingRepo(db: Kysely<Database>) {
  return {
    /** The owner's share of a deck that is still valid at `now`, the newest first. */
    findLive(userId: string, deckId: string, now: number): Promise<ShareRow | undefined> {
      return db
        .selectFrom('shares')
        .selectAll()
        .where('user_id', '=', userId)
        .where('deck_id', '=', deckId)
        .where('expires_at', '>', now)
        .orderBy('expires_at', 'desc')
        .executeTakeFirst();
    },

    async insert(row: Insertable<SharesTable>): Promise<void> {
      await db.insertInto('shares').values(row).execute();
    },

    async findByCode(code: string): Promise<SharedDeckRow | undefined> {
      const row = await db
        .selectFrom('shares')
        .innerJoin('decks', (join) =>
          join.onRef('decks.id', '=', 'shares.deck_id').onRef('decks.user_id', '=', 'shares.user_id'),
        )
        .innerJoin('users', 'users.id', 'shares.user_id')
        .selectAll('shares')
        .select([
          'decks.name as deck_name',
          'users.name as owner_name',
          'decks.new_cards',
          'decks.learning_cards',
          'decks.review_cards',
        ])
        .where('shares.code', '=', code)
        .executeTakeFirst();
      if (!row) return undefined;
      const { new_cards, learning_cards, review_cards, ...share } = row;
      return { ...share, card_count: new_cards + learning_cards + review_cards };
    },

    /** The shared deck's first `limit` cards in creation order (an index range of cards_user_deck_created). */
    preview(share: ShareRow, limit: number): Promise<{ question: string; answer: string }[]> {
      return db
        .selectFrom('cards')
        .select(['question', 'answer'])
        .where('user_id', '=', share.user_id)
        .where('deck_id', '=', share.deck_id)
        .orderBy('created_at')
        .orderBy('id')
        .limit(rowLimit(limit))
        .execute();
    },

    async hasImported(userId: string, shareId: string): Promise<boolean> {
      const row = await db
        .selectFrom('share_imports')
        .select('id')
        .where('user_id', '=', userId)
        .where('share_id', '=', shareId)
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Copies the shared deck and its cards into the importer's account, all in one transaction. The import record
     * is unique per (importer, share), so a second import of the same share fails with a unique violation.
     */
    async importDeck(plan: ImportPlan): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const { share, importerId, deck, now } = plan;
        await trx
          .insertInto('decks')
          .values({ ...deck, user_id: importerId, created_at: now, updated_at: now })
          .execute();
        await trx
          .insertInto('share_imports')
          .values({ id: plan.importId, user_id: importerId, share_id: share.id, deck_id: deck.id, created_at: now })
          .execute();
        const originals = await trx
          .selectFrom('cards')
          .select(['question', 'answer'])
          .where('user_id', '=', share.user_id)
          .where('deck_id', '=', share.deck_id)
          .orderBy('created_at')
          .orderBy('id')
          .execute();
        await insertCards(trx, originals.map(plan.copy));
      });
    },
  };
}

export type SharingRepo = ReturnType<typeof createSharingRepo>;
