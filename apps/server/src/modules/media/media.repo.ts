import type { Kysely } from 'kysely';
import type { MediaStore, MediaStoreKind } from '../../adapters/media/media-store';
import type { Database } from '../../db/schema';
import { userMediaSecret } from '../auth/users.repo';

export interface NewMedia {
  id: string;
  userId: string;
  name: string;
  sha256: string;
  contentType: string;
  data: Uint8Array;
  createdAt: number;
}

/** SQL for uploaded images; every query is scoped by the owner's user_id. */
export function createMediaRepo(db: Kysely<Database>, store: MediaStore) {
  return {
    /** The user's media secret, made once (the first writer wins when two uploads race). */
    mediaSecret(userId: string, fresh: string): Promise<string> {
      return userMediaSecret(db, userId, fresh);
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

    /** The user's image of this content, if they have one already. */
    findBySha(userId: string, sha256: string) {
      return db
        .selectFrom('media')
        .select(['id', 'name'])
        .where('user_id', '=', userId)
        .where('sha256', '=', sha256)
        .executeTakeFirst();
    },

    /** Restarts an image's unused time (it was uploaded again, so it is wanted again). */
    async touch(userId: string, mediaId: string, now: number): Promise<void> {
      await db
        .updateTable('media')
        .set({ created_at: now })
        .where('user_id', '=', userId)
        .where('id', '=', mediaId)
        .execute();
    },

    /**
     * Stores a new image: its row and its bytes in the configured store (the S3 object before the row, so a row
     * never names a missing object). An image of the same content the user already has is kept instead (two
     * uploads racing): the answer is the row that stays.
     */
    async insert(media: NewMedia): Promise<{ id: string; name: string }> {
      const row = {
        id: media.id,
        user_id: media.userId,
        name: media.name,
        sha256: media.sha256,
        content_type: media.contentType,
        size: media.data.byteLength,
        data: Buffer.alloc(0),
        created_at: media.createdAt,
        store: store.kind satisfies MediaStoreKind,
      };
      if (store.kind === 's3') {
        await store.put(db, media, media.data);
        await db
          .insertInto('media')
          .values(row)
          .onConflict((conflict) => conflict.columns(['user_id', 'sha256']).doNothing())
          .execute();
      } else {
        await db.transaction().execute(async (trx) => {
          const inserted = await trx
            .insertInto('media')
            .values(row)
            .onConflict((conflict) => conflict.columns(['user_id', 'sha256']).doNothing())
            .returning('id')
            .executeTakeFirst();
          if (inserted) await store.put(trx, media, media.data);
        });
      }
      return db
        .selectFrom('media')
        .select(['id', 'name'])
        .where('user_id', '=', media.userId)
        .where('sha256', '=', media.sha256)
        .executeTakeFirstOrThrow();
    },
  };
}

export type MediaRepo = ReturnType<typeof createMediaRepo>;
