import type { Kysely } from 'kysely';
import type { MediaStore } from '../../adapters/media/media-store';
import type { Database } from '../../db/schema';

/** SQL for image occlusion: the user's images by name (scoped by user_id), read whole for the label finder. */
export function createOcclusionRepo(db: Kysely<Database>, store: Pick<MediaStore, 'open'>) {
  return {
    /** The bytes of the user's image `name` (from the store its row names), or undefined when they have none. */
    async imageBytes(userId: string, name: string): Promise<Buffer | undefined> {
      const media = await db
        .selectFrom('media')
        .select(['id', 'sha256', 'store'])
        .where('user_id', '=', userId)
        .where('name', '=', name)
        .executeTakeFirst();
      if (!media) return undefined;
      const chunks: Buffer[] = [];
      for await (const chunk of await store.open(db, media)) chunks.push(Buffer.from(chunk as Uint8Array));
      return Buffer.concat(chunks);
    },
  };
}

export type OcclusionRepo = ReturnType<typeof createOcclusionRepo>;
