import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema';
import { insertMediaChunks } from '../../src/modules/interop/media-store';

/**
 * Stores an image as the user's media the way an import stores it (a media row and its chunks), for tests that
 * need a media name of the user's before an upload route exists. Returns the media name.
 */
export async function insertMedia(
  db: Kysely<Database>,
  userId: string,
  bytes: Uint8Array = randomBytes(64),
  extension = 'png',
): Promise<string> {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const name = `${createHash('sha1').update(`${userId}:${sha256}`).digest('hex')}.${extension}`;
  const id = randomBytes(12).toString('hex');
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('media')
      .values({
        id,
        user_id: userId,
        name,
        sha256,
        content_type: extension === 'jpg' ? 'image/jpeg' : `image/${extension}`,
        size: bytes.byteLength,
        data: Buffer.alloc(0),
        created_at: Date.now(),
      })
      .execute();
    await insertMediaChunks(trx, id, bytes);
  });
  return name;
}
