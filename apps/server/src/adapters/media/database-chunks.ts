import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/** Bytes per media_chunks row (migration 0011): what one query reads, and what one GET holds in memory at a time. */
export const MEDIA_CHUNK_BYTES = 262_144;

/** Stores an image's bytes as chunks of the media row `mediaId` (written in the caller's transaction). */
export async function insertMediaChunks(db: Kysely<Database>, mediaId: string, data: Uint8Array): Promise<void> {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const rows: { media_id: string; seq: number; data: Buffer }[] = [];
  for (let seq = 0; seq * MEDIA_CHUNK_BYTES < bytes.byteLength; seq += 1) {
    rows.push({
      media_id: mediaId,
      seq,
      data: bytes.subarray(seq * MEDIA_CHUNK_BYTES, (seq + 1) * MEDIA_CHUNK_BYTES),
    });
  }
  // A few chunks per statement: PostgreSQL sends each as hex text, twice its size.
  for (let start = 0; start < rows.length; start += 4) {
    await db
      .insertInto('media_chunks')
      .values(rows.slice(start, start + 4))
      .execute();
  }
}

/** Copies one image's chunks to another media row inside the database: the bytes never pass through this process. */
export async function copyMediaChunks(db: Kysely<Database>, fromId: string, toId: string): Promise<void> {
  await db
    .insertInto('media_chunks')
    .columns(['media_id', 'seq', 'data'])
    .expression((eb) =>
      eb
        .selectFrom('media_chunks')
        .select((inner) => [inner.val(toId).as('media_id'), 'seq', 'data'])
        .where('media_id', '=', fromId),
    )
    .execute();
}

/**
 * An image's bytes as a stream that reads one chunk per query when the reader asks for more: memory stays at about
 * one chunk per request whatever the image's size, and the event loop serves other requests between chunks.
 */
export function mediaStream(db: Kysely<Database>, mediaId: string): Readable {
  let seq = 0;
  return new Readable({
    highWaterMark: MEDIA_CHUNK_BYTES,
    read() {
      db.selectFrom('media_chunks')
        .select('data')
        .where('media_id', '=', mediaId)
        .where('seq', '=', seq)
        .executeTakeFirst()
        .then(
          (row) => {
            seq += 1;
            this.push(row ? Buffer.from(row.data) : null);
          },
          (error: Error) => this.destroy(error),
        );
    },
  });
}
