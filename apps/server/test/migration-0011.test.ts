import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/database';
import { MEDIA_CHUNK_BYTES } from '../src/modules/interop/media-store';
import { insertUserRow, migratedBackTo } from './support/migration';
import { useTestDatabase } from './support/test-database';

/** Migration 0011 moves the bytes of images stored before it into media_chunks, and its down puts them back. */

const database = useTestDatabase();

describe('migration 0011-media-chunks', () => {
  it('splits each stored image into chunks in order and empties media.data; down restores the bytes', async () => {
    const { db, dialect } = database.current;
    const migrator = await migratedBackTo(database.current, '0010-queue-order-indexes');

    const now = Date.parse('2026-11-26T08:00:00.000Z');
    const userId = 'u'.repeat(24);
    await insertUserRow(db, userId, 'm@example.com', now);
    const big = randomBytes(2 * MEDIA_CHUNK_BYTES + 1000);
    const small = randomBytes(10);
    const images = [
      { id: 'a'.repeat(24), data: big },
      { id: 'b'.repeat(24), data: small },
    ];
    for (const { id, data } of images) {
      await db
        .insertInto('media')
        .values({
          id,
          user_id: userId,
          name: `${id.slice(0, 1).repeat(40)}.png`,
          sha256: id,
          content_type: 'image/png',
          size: data.byteLength,
          data,
          created_at: now,
        })
        .execute();
    }

    await migrateToLatest(db, dialect);
    const chunks = await db
      .selectFrom('media_chunks')
      .select(['media_id', 'seq', 'data'])
      .orderBy('media_id')
      .orderBy('seq')
      .execute();
    expect(chunks.map((chunk) => [chunk.media_id, chunk.seq, Buffer.from(chunk.data).byteLength])).toEqual([
      ['a'.repeat(24), 0, MEDIA_CHUNK_BYTES],
      ['a'.repeat(24), 1, MEDIA_CHUNK_BYTES],
      ['a'.repeat(24), 2, 1000],
      ['b'.repeat(24), 0, 10],
    ]);
    const joined = Buffer.concat(
      chunks.filter((chunk) => chunk.media_id === 'a'.repeat(24)).map((chunk) => Buffer.from(chunk.data)),
    );
    expect(joined.equals(big)).toBe(true);
    const rows = await db.selectFrom('media').select(['id', 'data', 'size']).orderBy('id').execute();
    expect(rows.map((row) => [row.id, Buffer.from(row.data).byteLength, row.size])).toEqual([
      ['a'.repeat(24), 0, big.byteLength],
      ['b'.repeat(24), 0, 10],
    ]);

    expect((await migrator.migrateTo('0010-queue-order-indexes')).error).toBeUndefined();
    const restored = await db.selectFrom('media').select(['id', 'data']).orderBy('id').execute();
    expect(restored.map((row) => Buffer.from(row.data).equals(row.id === 'a'.repeat(24) ? big : small))).toEqual([
      true,
      true,
    ]);
    await migrateToLatest(db, dialect);
  });
});
