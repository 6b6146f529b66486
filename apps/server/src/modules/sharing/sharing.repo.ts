import type { CardType, OcclusionFields, OcclusionView } from '@flashcards/shared/notes';
import type { Insertable, Kysely, Selectable } from 'kysely';
import { forEachBatch, INSERT_BATCH } from '../../db/batches';
import { rowLimit } from '../../db/row-limit';
import type { Database, SharesTable } from '../../db/schema';
import { setUserColumnOnce } from '../auth/users.repo';
import { mediaName } from '../interop/import-parser';
import { copyMediaChunks } from '../interop/media-store';
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
  /** Makes a new card row (with its own id) for the importer from an original's text, in the note copied as `noteId`. */
  copy: (
    text: { question: string; answer: string },
    note: { noteId: string; card_type: CardType; ord: number; occlusion?: OcclusionView },
  ) => NewCardRow;
  /** Ids for the importer's copies of the deck's images. */
  newId: () => string;
  /** The importer's media secret if they have none yet (their copies' names are made with their own). */
  freshMediaSecret: string;
}

const mediaReference = /\/media\/([0-9a-f]{40}\.[a-z]+)/g;

/**
 * SQL for share links. The owner's queries are scoped by their user_id. A share is found by its code alone: the
 * unguessable code is the permission, and what it reveals (deck name, owner name, card count) is what the owner
 * chose to share; the copied cards are read scoped by the share's owner and deck.
 */
/** The shared deck's cards in creation order (an index range of cards_user_deck_created). */
function sharedCards(db: Kysely<Database>, share: ShareRow) {
  return db
    .selectFrom('cards')
    .select(['question', 'answer'])
    .where('user_id', '=', share.user_id)
    .where('deck_id', '=', share.deck_id)
    .orderBy('created_at')
    .orderBy('id');
}

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

    /** The shared deck's first `limit` cards in creation order. */
    preview(share: ShareRow, limit: number): Promise<{ question: string; answer: string }[]> {
      return sharedCards(db, share).limit(rowLimit(limit)).execute();
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
        const originals = await sharedCards(trx, share)
          .select(['id', 'note_id', 'card_type', 'ord', 'occlusion'])
          .execute();
        // Each note is copied with its type and fields, so a cloze or reversed note stays one.
        const originalNotes = await trx
          .selectFrom('notes')
          .select(['id', 'type', 'fields'])
          .where('user_id', '=', share.user_id)
          .where('deck_id', '=', share.deck_id)
          .execute();
        const noteCopies = new Map(originalNotes.map((note) => [note.id, { ...note, copyId: plan.newId() }]));
        const originalLinks = await sharedCardMedia(trx, share);
        const renamed = await copySharedMedia(trx, plan, originalLinks);
        const rename = (text: string) =>
          text.replace(mediaReference, (all, name: string) => {
            const copy = renamed.get(name);
            return copy ? `/media/${copy.name}` : all;
          });
        const rows = originals.map((card) =>
          plan.copy(
            { question: rename(card.question), answer: rename(card.answer) },
            {
              noteId: noteCopies.get(card.note_id)?.copyId ?? plan.newId(),
              card_type: card.card_type,
              ord: card.ord,
              ...(card.occlusion ? { occlusion: JSON.parse(rename(card.occlusion)) as OcclusionView } : {}),
            },
          ),
        );
        const notes = [...noteCopies.values()].map((note) => ({
          id: note.copyId,
          user_id: importerId,
          deck_id: deck.id,
          type: note.type,
          fields: note.type === 'occlusion' ? renameOcclusionImage(note.fields, renamed) : rename(note.fields),
          created_at: now,
          updated_at: now,
        }));
        await insertCards(trx, rows, notes);
        if (renamed.size === 0) return;
        // The copies use the importer's images as the originals use the sharer's: in text, as `images`, as occlusion.
        const copyOf = new Map(originals.map((card, index) => [card.id, rows[index]?.id]));
        const mediaIdOf = new Map([...renamed.entries()].map(([name, copy]) => [name, copy.id]));
        const links = originalLinks.flatMap((link) => {
          const cardId = copyOf.get(link.card_id);
          const mediaId = mediaIdOf.get(link.name);
          return cardId && mediaId
            ? [{ card_id: cardId, media_id: mediaId, user_id: importerId, position: link.position }]
            : [];
        });
        await forEachBatch(links, INSERT_BATCH, async (batch) => {
          await trx
            .insertInto('card_media')
            .values(batch)
            .onConflict((conflict) => conflict.doNothing())
            .execute();
        });
      });
    },
  };
}

export type SharingRepo = ReturnType<typeof createSharingRepo>;

/** The shared deck's links from its cards to the sharer's images: each image's row and its place on the card. */
function sharedCardMedia(trx: Kysely<Database>, share: ShareRow) {
  return trx
    .selectFrom('card_media')
    .innerJoin('cards', 'cards.id', 'card_media.card_id')
    .innerJoin('media', 'media.id', 'card_media.media_id')
    .select([
      'card_media.card_id',
      'card_media.position',
      'media.id',
      'media.name',
      'media.sha256',
      'media.content_type',
      'media.size',
      'media.store',
    ])
    .where('cards.user_id', '=', share.user_id)
    .where('cards.deck_id', '=', share.deck_id)
    .where('media.user_id', '=', share.user_id)
    .execute();
}

/** An occlusion note's fields (JSON) with its image, a bare media name, renamed to the importer's copy. */
function renameOcclusionImage(fields: string, renamed: ReadonlyMap<string, { name: string }>): string {
  const parsed = JSON.parse(fields) as OcclusionFields;
  const copy = renamed.get(parsed.image);
  return copy ? JSON.stringify({ ...parsed, image: copy.name }) : fields;
}

/**
 * The sharer's images that the shared deck's cards show, made the importer's own: an image the importer already has
 * (same content) is theirs already; any other gets a media row of the importer's, under a name made with their
 * secret, and a copy of its bytes made inside the database. The sharer deleting theirs then breaks nothing, and the
 * importer's export finds the images. Returns each sharer's name → the importer's copy.
 */
async function copySharedMedia(
  trx: Kysely<Database>,
  plan: ImportPlan,
  links: Awaited<ReturnType<typeof sharedCardMedia>>,
) {
  const { importerId, now } = plan;
  const shared = [...new Map(links.map((link) => [link.id, link])).values()];
  const renamed = new Map<string, { id: string; name: string }>();
  if (shared.length === 0) return renamed;
  await setUserColumnOnce(trx, importerId, 'media_secret', plan.freshMediaSecret);
  const user = await trx.selectFrom('users').select('media_secret').where('id', '=', importerId).executeTakeFirst();
  const secret = user?.media_secret ?? plan.freshMediaSecret;
  for (const media of shared) {
    const copy = { id: plan.newId(), name: mediaName(secret, media.sha256, media.name.split('.').at(-1) ?? 'png') };
    await trx
      .insertInto('media')
      .values({
        ...copy,
        user_id: importerId,
        sha256: media.sha256,
        content_type: media.content_type,
        size: media.size,
        data: Buffer.alloc(0),
        created_at: now,
        // An S3 image's object is keyed by its content, so the copy shares it; chunks are copied below.
        store: media.store,
      })
      .onConflict((conflict) => conflict.columns(['user_id', 'sha256']).doNothing())
      .execute();
    const own = await trx
      .selectFrom('media')
      .select(['id', 'name'])
      .where('user_id', '=', importerId)
      .where('sha256', '=', media.sha256)
      .executeTakeFirstOrThrow();
    if (own.id === copy.id) await copyMediaChunks(trx, media.id, copy.id);
    renamed.set(media.name, own);
  }
  return renamed;
}
