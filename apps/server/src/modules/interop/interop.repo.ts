import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { setUserColumnOnce } from '../auth/users.repo';
import type { NewCardRow } from '../study-core/card-state';
import { INSERT_BATCH, insertCards } from '../study-core/deck-counters';
import { ownedDeck } from '../study-core/owned-rows';
import { insertMediaChunks, mediaStream } from './media-store';

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
const EXPORT_PAGE = 1000;

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
                data: Buffer.alloc(0),
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
        // The bytes go in chunks, for the rows this import added (an image imported before keeps its own).
        for (const media of plan.media) {
          if (mediaIds.get(media.name) === media.id) await insertMediaChunks(trx, media.id, media.data);
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
      return db.selectFrom('media').select(['id', 'content_type', 'size']).where('name', '=', name).executeTakeFirst();
    },

    /** An image's bytes, streamed a chunk at a time. */
    mediaBytes(mediaId: string) {
      return mediaStream(db, mediaId);
    },

    /** The deck an export names, when it is the user's. */
    deckForExport(userId: string, deckId: string) {
      return ownedDeck(db, userId, deckId).select(['id', 'name', 'created_at']).executeTakeFirst();
    },

    /** The deck's cards in creation order, EXPORT_PAGE at a time (keyset paging: each page one short query). */
    async *exportCardPages(userId: string, deckId: string) {
      let after: { created_at: number; id: string } | undefined;
      for (;;) {
        let query = db
          .selectFrom('cards')
          .select(['id', 'question', 'answer', 'created_at'])
          .where('user_id', '=', userId)
          .where('deck_id', '=', deckId);
        if (after) {
          const { created_at, id } = after;
          query = query.where((eb) =>
            eb.or([eb('created_at', '>', created_at), eb.and([eb('created_at', '=', created_at), eb('id', '>', id)])]),
          );
        }
        const page = await query.orderBy('created_at').orderBy('id').limit(EXPORT_PAGE).execute();
        if (page.length > 0) yield page;
        const last = page.at(-1);
        if (page.length < EXPORT_PAGE || !last) return;
        after = last;
      }
    },

    /** The user's images among these names, with their bytes (for an export, which holds them all anyway). */
    async userMedia(userId: string, names: string[]) {
      const rows: { name: string; data: Buffer }[] = [];
      for (let start = 0; start < names.length; start += GUID_BATCH) {
        const found = await db
          .selectFrom('media')
          .select(['id', 'name'])
          .where('user_id', '=', userId)
          .where('name', 'in', names.slice(start, start + GUID_BATCH))
          .execute();
        for (const media of found) {
          const parts: Buffer[] = [];
          for await (const chunk of mediaStream(db, media.id)) parts.push(chunk as Buffer);
          rows.push({ name: media.name, data: Buffer.concat(parts) });
        }
      }
      return rows;
    },
  };
}

export type InteropRepo = ReturnType<typeof createInteropRepo>;
