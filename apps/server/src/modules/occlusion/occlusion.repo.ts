import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/** SQL for image occlusion: the user's images by name (scoped by user_id), read whole for the label finder. */
export function createOcclusionRepo(db: Kysely<Database>) {
  return {
    /** The bytes of the user's image `name`, or undefined when they have none of that name. */
    async imageBytes(userId: string, name: string): Promise<Buffer | undefined> {
      const media = await db
        .selectFrom('media')
        .select('id')
        .where('user_id', '=', userId)
        .where('name', '=', name)
        .executeTakeFirst();
      if (!media) return undefined;
      const chunks = await db
        .selectFrom('media_chunks')
        .select('data')
        .where('media_id', '=', media.id)
        .orderBy('seq')
        .execute();
      return Buffer.concat(chunks.map((chunk) => Buffer.from(chunk.data)));
    },
  };
}

export type OcclusionRepo = ReturnType<typeof createOcclusionRepo>;
