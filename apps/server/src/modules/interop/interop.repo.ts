import type { NoteContent } from '@flashcards/shared/notes';
import type { Kysely } from 'kysely';
import { createMediaStore, type MediaStore, type StoredMedia } from '../../adapters/media/media-store';
import { forEachBatch, INSERT_BATCH } from '../../db/batches';
import { rowLimit } from '../../db/row-limit';
import type { Database } from '../../db/schema';
import { userMediaSecret } from '../auth/users.repo';
import { cardImages } from '../study-core/card-images';
import { insertCards } from '../study-core/deck-counters';
import { type NewNote, noteBatches } from '../study-core/note-rows';
import { ownedDeck } from '../study-core/owned-rows';

export interface ImportPlan {
  userId: string;
  now: number;
  decks: { id: string; name: string; daily_new_card_limit: number }[];
  /** The notes with their card rows, in the file's order. */
  notes: NewNote[];
  media: { id: string; name: string; sha256: string; contentType: string; data: Uint8Array }[];
  /** Card id → stored media names it shows. */
  cardMedia: { cardId: string; mediaName: string }[];
  /** Anki note guids now imported, with the deck their cards went into. */
  guids: { guid: string; deckId: string }[];
}

/** Guids, ids or names per `IN (…)` list. */
const GUID_BATCH = INSERT_BATCH;

/** The note types an .apkg export writes. */
const exportableTypes = ['basic', 'reversed', 'cloze', 'occlusion'] as const;

/**
 * A stored note's content, or undefined when its fields are not the JSON its type has. Not `checkNote`: an imported
 * basic note may have an empty back, as in Anki, and is exported all the same.
 */
function storedContent(type: string, fields: string): NoteContent | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fields);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const record = parsed as Record<string, unknown>;
  if (type === 'basic' || type === 'reversed') {
    return { type, fields: { front: text(record.front), back: text(record.back) } };
  }
  if (type === 'cloze') return { type, fields: { text: text(record.text), extra: text(record.extra) } };
  if (type === 'occlusion') {
    // Stored occlusion fields were checked when saved (checkNote); only their presence is checked here.
    if (typeof record.image !== 'string' || !Array.isArray(record.masks)) return undefined;
    return {
      type,
      fields: {
        image: record.image,
        masks: record.masks,
        mode: record.mode === 'hide_all' ? 'hide_all' : 'hide_one',
        header: text(record.header),
        back_extra: text(record.back_extra),
      },
    };
  }
  return undefined;
}
const EXPORT_PAGE = 1000;
/**
 * Cards written per transaction by an import: one insert statement (each card also goes into the full-text index),
 * so that other requests get the connection between two transactions within a few milliseconds.
 */
export const IMPORT_WRITE_BATCH = INSERT_BATCH;
/** Image bytes per insert statement at most. */
const MEDIA_BATCH_BYTES = 16 * 1024 * 1024;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** An import's account was deleted while it was read or written: nothing of it is left, and the caller is signed out. */
export class ImportUserGoneError extends Error {
  override name = 'ImportUserGoneError';
}

/** SQL for imports, exports and media. Every query is scoped by the owner's user_id, except a media fetch by name. */
export function createInteropRepo(db: Kysely<Database>, store: MediaStore = createMediaStore({ kind: 'database' })) {
  /** Removes what a failed import wrote: its decks (their cards, links and guids go with them) and the images it added. */
  async function undoImport(userId: string, deckIds: string[], mediaIds: string[]): Promise<void> {
    await forEachBatch(deckIds, GUID_BATCH, async (batch) => {
      await db.deleteFrom('decks').where('user_id', '=', userId).where('id', 'in', batch).execute();
    });
    await forEachBatch(mediaIds, GUID_BATCH, async (batch) => {
      await db.deleteFrom('media').where('user_id', '=', userId).where('id', 'in', batch).execute();
    });
  }

  async function userExists(userId: string): Promise<boolean> {
    const row = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
    return row !== undefined;
  }

  return {
    userExists,

    /** The user's media secret, made once (the first writer wins when two imports race). */
    mediaSecret(userId: string, fresh: string): Promise<string> {
      return userMediaSecret(db, userId, fresh);
    },

    /** How many notes the user has imported (and still holds). */
    async importedNoteCount(userId: string): Promise<number> {
      const row = await db
        .selectFrom('imported_notes')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /** Which of these guids the user has imported before (in batches, yielding to the event loop between them). */
    async importedGuids(userId: string, guids: string[]): Promise<Set<string>> {
      const found = new Set<string>();
      await forEachBatch(guids, GUID_BATCH, async (batch) => {
        const rows = await db
          .selectFrom('imported_notes')
          .select('guid')
          .where('user_id', '=', userId)
          .where('guid', 'in', batch)
          .execute();
        for (const row of rows) found.add(row.guid);
        // SQLite answers synchronously, so without this the 400 queries of a 199,000-note import ran as one task.
        await yieldToEventLoop();
      });
      return found;
    },

    /** The bytes of images the user has stored (MEDIA_QUOTA_BYTES_PER_USER bounds them). */
    async mediaBytes(userId: string): Promise<number> {
      const row = await db
        .selectFrom('media')
        .select((eb) => eb.fn.sum<number | string | null>('size').as('total'))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(row?.total ?? 0);
    },

    /**
     * Writes an import in many small transactions (decks, then images, then `IMPORT_WRITE_BATCH` cards at a time with
     * their image links and note guids), yielding to the event loop between them, so that other requests run while
     * a large import is written (one transaction of 199,000 cards held the one SQLite connection for seconds). A
     * failure part-way removes what this import wrote (its decks, with their cards, and the images it added) and
     * throws, ImportUserGoneError when the account was deleted meanwhile (the foreign keys on the user refused a
     * slice; the deletion's cascade took what earlier slices wrote). Returns each deck's card count afterwards.
     */
    async writeImport(plan: ImportPlan): Promise<Map<string, number>> {
      const { userId, now } = plan;
      const deckIds = plan.decks.map((deck) => deck.id);
      const addedMedia: string[] = [];
      try {
        if (plan.decks.length > 0) {
          await db
            .insertInto('decks')
            .values(plan.decks.map((deck) => ({ ...deck, user_id: userId, created_at: now, updated_at: now })))
            .execute();
        }
        // Images: one row per user and content; an image imported before is reused. Bounded bytes per statement.
        let batch: ImportPlan['media'] = [];
        let batchBytes = 0;
        const flushMedia = async () => {
          if (batch.length === 0) return;
          // S3 objects go first, so that a row never names a missing object (an object no row names is swept).
          if (store.kind === 's3') for (const media of batch) await store.put(db, media, media.data);
          const rows = await db
            .insertInto('media')
            .values(
              batch.map((media) => ({
                id: media.id,
                user_id: userId,
                name: media.name,
                sha256: media.sha256,
                content_type: media.contentType,
                size: media.data.byteLength,
                data: Buffer.alloc(0),
                created_at: now,
                store: store.kind,
              })),
            )
            .onConflict((conflict) => conflict.columns(['user_id', 'sha256']).doNothing())
            .returning('id')
            .execute();
          for (const row of rows) addedMedia.push(row.id);
          // The bytes go in chunks, for the rows this import added (an image imported before keeps its own).
          const added = new Set(rows.map((row) => row.id));
          if (store.kind === 'database') {
            for (const media of batch) if (added.has(media.id)) await store.put(db, media, media.data);
          }
          batch = [];
          batchBytes = 0;
          await yieldToEventLoop();
        };
        for (const media of plan.media) {
          batch.push(media);
          batchBytes += media.data.byteLength;
          if (batch.length >= 50 || batchBytes >= MEDIA_BATCH_BYTES) await flushMedia();
        }
        await flushMedia();
        const mediaIds = new Map<string, string>();
        const names = plan.media.map((media) => media.name);
        await forEachBatch(names, GUID_BATCH, async (batch) => {
          const rows = await db
            .selectFrom('media')
            .select(['id', 'name'])
            .where('user_id', '=', userId)
            .where('name', 'in', batch)
            .execute();
          for (const row of rows) mediaIds.set(row.name, row.id);
        });

        const linksByCard = new Map<string, string[]>();
        for (const { cardId, mediaName } of plan.cardMedia) {
          const mediaId = mediaIds.get(mediaName);
          if (!mediaId) continue;
          const list = linksByCard.get(cardId) ?? [];
          list.push(mediaId);
          linksByCard.set(cardId, list);
        }
        for (const batch of noteBatches(plan.notes, IMPORT_WRITE_BATCH)) {
          const cards = batch.flatMap((note) => note.cards);
          await db.transaction().execute(async (trx) => {
            await insertCards(
              trx,
              cards,
              batch.map((note) => note.note),
            );
            const links = cards.flatMap((card) =>
              (linksByCard.get(card.id) ?? []).map((mediaId) => ({
                card_id: card.id,
                media_id: mediaId,
                user_id: userId,
              })),
            );
            await forEachBatch(links, INSERT_BATCH, async (batch) => {
              await trx.insertInto('card_media').values(batch).execute();
            });
          });
          await yieldToEventLoop();
        }
        for (let start = 0; start < plan.guids.length; start += IMPORT_WRITE_BATCH) {
          const slice = plan.guids
            .slice(start, start + IMPORT_WRITE_BATCH)
            .map((note) => ({ user_id: userId, guid: note.guid, deck_id: note.deckId, created_at: now }));
          await db.transaction().execute(async (trx) => {
            await forEachBatch(slice, INSERT_BATCH, async (batch) => {
              await trx
                .insertInto('imported_notes')
                .values(batch)
                .onConflict((conflict) => conflict.columns(['user_id', 'guid']).doNothing())
                .execute();
            });
          });
          await yieldToEventLoop();
        }
      } catch (error) {
        await undoImport(userId, deckIds, addedMedia);
        // The foreign-key error differs between SQLite and PostgreSQL; whether the user is still there does not.
        if (!(await userExists(userId))) throw new ImportUserGoneError();
        throw error;
      }
      const counts = new Map<string, number>();
      if (deckIds.length > 0) {
        const rows = await db
          .selectFrom('decks')
          .select(['id', 'new_cards', 'learning_cards', 'review_cards'])
          .where('user_id', '=', userId)
          .where('id', 'in', deckIds)
          .execute();
        for (const row of rows) counts.set(row.id, row.new_cards + row.learning_cards + row.review_cards);
      }
      return counts;
    },

    /** A stored image by its unguessable name: the name is the permission (an `<img>` sends no token). */
    findMedia(name: string) {
      return db
        .selectFrom('media')
        .select(['id', 'content_type', 'size', 'sha256', 'store'])
        .where('name', '=', name)
        .executeTakeFirst();
    },

    /** An image's bytes, streamed from the store its row names (database chunks or S3). */
    mediaContent(media: StoredMedia) {
      return store.open(db, media);
    },

    /**
     * The deck an export names, when it is the user's, with the teacher whose cards it copies when it is (or was) a
     * class's linked copy: those cards show the teacher's images.
     */
    deckForExport(userId: string, deckId: string) {
      return ownedDeck(db, userId, deckId)
        .select((eb) => [
          'id',
          'name',
          'created_at',
          eb
            .selectFrom('cards as copy')
            .innerJoin('cards as source', 'source.id', 'copy.source_card_id')
            .select('source.user_id')
            .whereRef('copy.deck_id', '=', 'decks.id')
            .limit(rowLimit(1))
            .as('teacher_id'),
        ])
        .executeTakeFirst();
    },

    /**
     * The deck's notes in creation order, EXPORT_PAGE at a time (keyset paging: each page one short query), each
     * with its content and the ordinals of its cards.
     */
    async *exportNotePages(userId: string, deckId: string) {
      let after: { created_at: number; id: string } | undefined;
      for (;;) {
        let query = db
          .selectFrom('notes')
          .select(['id', 'type', 'fields', 'created_at'])
          .where('user_id', '=', userId)
          .where('deck_id', '=', deckId)
          .where('type', 'in', [...exportableTypes]);
        if (after) {
          const { created_at, id } = after;
          query = query.where((eb) =>
            eb.or([eb('created_at', '>', created_at), eb.and([eb('created_at', '=', created_at), eb('id', '>', id)])]),
          );
        }
        const page = await query.orderBy('created_at').orderBy('id').limit(rowLimit(EXPORT_PAGE)).execute();
        const ords = new Map<string, number[]>();
        const images = new Map<string, string[]>();
        if (page.length > 0) {
          const cards = await db
            .selectFrom('cards')
            .select(['id', 'note_id', 'ord'])
            .where('user_id', '=', userId)
            .where(
              'note_id',
              'in',
              page.map((note) => note.id),
            )
            .orderBy('note_id')
            .orderBy('ord')
            .execute();
          for (const card of cards) {
            const list = ords.get(card.note_id) ?? [];
            list.push(card.ord);
            ords.set(card.note_id, list);
          }
          // The cards' `images` (not the images their text shows, which the fields name already), per note.
          const byCard = await cardImages(
            db,
            userId,
            cards.map((card) => card.id),
          );
          for (const card of cards) {
            const list = images.get(card.note_id) ?? [];
            for (const url of byCard.get(card.id) ?? []) {
              const name = url.slice('/media/'.length);
              if (!list.includes(name)) list.push(name);
            }
            images.set(card.note_id, list);
          }
        }
        const notes = page.flatMap((note) => {
          const content = storedContent(note.type, note.fields);
          const noteOrds = ords.get(note.id) ?? [];
          return content && noteOrds.length > 0
            ? [{ id: note.id, content, ords: noteOrds, images: images.get(note.id) ?? [], created_at: note.created_at }]
            : [];
        });
        if (notes.length > 0) yield notes;
        const last = page.at(-1);
        if (page.length < EXPORT_PAGE || !last) return;
        after = last;
      }
    },

    /**
     * The images among these names of the owners' (the user, and the teacher of a linked copy), with their bytes (for
     * an export, which holds them all anyway); each name once.
     */
    async userMedia(ownerIds: readonly string[], names: string[]) {
      const rows: { name: string; data: Buffer }[] = [];
      const seen = new Set<string>();
      await forEachBatch(names, GUID_BATCH, async (batch) => {
        const found = await db
          .selectFrom('media')
          .select(['id', 'name', 'sha256', 'store'])
          .where('user_id', 'in', ownerIds)
          .where('name', 'in', batch)
          .execute();
        for (const media of found) {
          if (seen.has(media.name)) continue;
          seen.add(media.name);
          const parts: Buffer[] = [];
          for await (const chunk of await store.open(db, media)) parts.push(chunk as Buffer);
          rows.push({ name: media.name, data: Buffer.concat(parts) });
        }
      });
      return rows;
    },
  };
}

export type InteropRepo = ReturnType<typeof createInteropRepo>;
