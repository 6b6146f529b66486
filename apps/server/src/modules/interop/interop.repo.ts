import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { setUserColumnOnce } from '../auth/users.repo';
import type { NewCardRow } from '../study-core/card-state';
import { INSERT_BATCH, insertCards } from '../study-core/deck-counters';
import { ownedDeck } from '../study-core/owned-rows';

export interface ImportPlan {
  userId: string;
  now: number;
  decks: { id: string; name: string; daily_new_card_limit: number }[];
  cards: NewCardRow[];
  media: { id: string; name: string; sha256: string; contentType: string; data: Uint8Array }[];
  /** Card id → stored media names it shows. */
  cardMedia: { cardId: string; mediaName: string }[];
  /** Anki note guids now imported, with the deck their cards went into. */
  notes: { guid: string; deckId: string }[];
}

const GUID_BATCH = 500;

/** SQL for imports, exports and media. Every query is scoped by the owner's user_id, except a media fetch by name. */
export function createInteropRepo(db: Kysely<Database>) {
  return {
    /** The user's media secret, made once (the first writer wins when two imports race). */
    async mediaSecret(userId: string, fresh: string): Promise<string> {
      await setUserColumnOnce(db, userId, 'media_secret', fresh);
      const row = await db.selectFrom('users').select('media_secret').where('id', '=', userId).executeTakeFirst();
      return row?.media_secret ?? fresh;
    },

    /** Which of these guids the user has imported before. */
    async importedGuids(userId: string, guids: string[]): Promise<Set<string>> {
      const found = new Set<string>();
      for (let start = 0; start < guids.length; start += GUID_BATCH) {
        const rows = await db
          .selectFrom('imported_notes')
          .select('guid')
          .where('user_id', '=', userId)
          .where('guid', 'in', guids.slice(start, start + GUID_BATCH))
          .execute();
        for (const row of rows) found.add(row.guid);
      }
      return found;
    },

    /**
     * Writes a whole import in one transaction: decks, cards, images, which card shows which image, and the
     * imported note guids. A failure leaves nothing behind. Returns each deck's card count afterwards.
     */
    async writeImport(plan: ImportPlan): Promise<Map<string, number>> {
      return db.transaction().execute(async (trx) => {
        const { userId, now } = plan;
        if (plan.decks.length > 0) {
          await trx
            .insertInto('decks')
            .values(plan.decks.map((deck) => ({ ...deck, user_id: userId, created_at: now, updated_at: now })))
            .execute();
        }
        await insertCards(trx, plan.cards);
        // Images: one row per user and content; an image imported before is reused.
        for (let start = 0; start < plan.media.length; start += 50) {
          await trx
            .insertInto('media')
            .values(
              plan.media.slice(start, start + 50).map((media) => ({
                id: media.id,
                user_id: userId,
                name: media.name,
                sha256: media.sha256,
                content_type: media.contentType,
                size: media.data.byteLength,
                data: Buffer.from(media.data.buffer, media.data.byteOffset, media.data.byteLength),
                created_at: now,
              })),
            )
            .onConflict((conflict) => conflict.columns(['user_id', 'sha256']).doNothing())
            .execute();
        }
        const mediaIds = new Map<string, string>();
        const names = plan.media.map((media) => media.name);
        for (let start = 0; start < names.length; start += GUID_BATCH) {
          const rows = await trx
            .selectFrom('media')
            .select(['id', 'name'])
            .where('user_id', '=', userId)
            .where('name', 'in', names.slice(start, start + GUID_BATCH))
            .execute();
          for (const row of rows) mediaIds.set(row.name, row.id);
        }
        const links = plan.cardMedia.flatMap(({ cardId, mediaName }) => {
          const mediaId = mediaIds.get(mediaName);
          return mediaId ? [{ card_id: cardId, media_id: mediaId, user_id: userId }] : [];
        });
        for (let start = 0; start < links.length; start += INSERT_BATCH) {
          await trx
            .insertInto('card_media')
            .values(links.slice(start, start + INSERT_BATCH))
            .execute();
        }
        const notes = plan.notes.map((note) => ({
          user_id: userId,
          guid: note.guid,
          deck_id: note.deckId,
          created_at: now,
        }));
        for (let start = 0; start < notes.length; start += INSERT_BATCH) {
          await trx
            .insertInto('imported_notes')
            .values(notes.slice(start, start + INSERT_BATCH))
            .onConflict((conflict) => conflict.columns(['user_id', 'guid']).doNothing())
            .execute();
        }
        const counts = new Map<string, number>();
        const deckIds = plan.decks.map((deck) => deck.id);
        if (deckIds.length > 0) {
          const rows = await trx
            .selectFrom('decks')
            .select(['id', 'new_cards', 'learning_cards', 'review_cards'])
            .where('user_id', '=', userId)
            .where('id', 'in', deckIds)
            .execute();
          for (const row of rows) counts.set(row.id, row.new_cards + row.learning_cards + row.review_cards);
        }
        return counts;
      });
    },

    /** A stored image by its unguessable name: the name is the permission (an `<img>` sends no token). */
    findMedia(name: string) {
      return db
        .selectFrom('media')
        .select(['content_type', 'data', 'size'])
        .where('name', '=', name)
        .executeTakeFirst();
    },

    /** The deck and its cards, in creation order, for an export. */
    async deckForExport(userId: string, deckId: string) {
      const deck = await ownedDeck(db, userId, deckId).select(['id', 'name', 'created_at']).executeTakeFirst();
      if (!deck) return undefined;
      const cards = await db
        .selectFrom('cards')
        .select(['id', 'question', 'answer', 'created_at'])
        .where('user_id', '=', userId)
        .where('deck_id', '=', deckId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return { deck, cards };
    },

    /** The user's images among these names. */
    async userMedia(userId: string, names: string[]) {
      const rows: { name: string; data: Buffer }[] = [];
      for (let start = 0; start < names.length; start += GUID_BATCH) {
        rows.push(
          ...(await db
            .selectFrom('media')
            .select(['name', 'data'])
            .where('user_id', '=', userId)
            .where('name', 'in', names.slice(start, start + GUID_BATCH))
            .execute()),
        );
      }
      return rows;
    },
  };
}

export type InteropRepo = ReturnType<typeof createInteropRepo>;
