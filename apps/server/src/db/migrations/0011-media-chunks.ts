import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Media bytes in chunks of MEDIA_CHUNK_BYTES (issue 30): GET /media/{name} reads one chunk per query and streams it,
// so a large image is never read whole (better-sqlite3 has no incremental blob reads, and SQLite's substr() reads the
// whole value each time; PostgreSQL decodes a whole bytea as hex). media.data stays, empty, so nothing shipped breaks.
// Existing images are split inside PostgreSQL, and moved one at a time on SQLite.
// Immutable once landed: change the schema with a new migration.

export const MEDIA_CHUNK_BYTES = 262_144;

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('media_chunks')
    .addColumn('media_id', 'text', (col) => col.notNull().references('media.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (col) => col.notNull())
    .addColumn('data', postgres ? 'bytea' : 'blob', (col) => col.notNull())
    .addPrimaryKeyConstraint('media_chunks_pk', ['media_id', 'seq'])
    .execute();
  if (postgres) await sql`alter table media_chunks alter column data set storage external`.execute(db);

  const typed = db as unknown as Kysely<{ media: { id: string; data: Buffer } }>;
  if (postgres) {
    // Split inside the database: a large bytea never comes through this process (it would arrive as hex).
    await sql`insert into media_chunks (media_id, seq, data)
      select id, part, substring(data from part * ${MEDIA_CHUNK_BYTES} + 1 for ${MEDIA_CHUNK_BYTES})
      from media, generate_series(0, (length(data) - 1) / ${MEDIA_CHUNK_BYTES}) as part
      where length(data) > 0`.execute(db);
    await sql`update media set data = ''::bytea where length(data) > 0`.execute(db);
    return;
  }
  const ids = await typed.selectFrom('media').select('id').execute();
  for (const { id } of ids) {
    const row = await typed.selectFrom('media').select('data').where('id', '=', id).executeTakeFirst();
    const data = row ? Buffer.from(row.data) : Buffer.alloc(0);
    for (let seq = 0; seq * MEDIA_CHUNK_BYTES < data.byteLength; seq += 1) {
      const chunk = data.subarray(seq * MEDIA_CHUNK_BYTES, (seq + 1) * MEDIA_CHUNK_BYTES);
      await sql`insert into media_chunks (media_id, seq, data) values (${id}, ${seq}, ${chunk})`.execute(db);
    }
    await typed
      .updateTable('media')
      .set({ data: Buffer.alloc(0) })
      .where('id', '=', id)
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const typed = db as unknown as Kysely<{
    media: { id: string; data: Buffer };
    media_chunks: { media_id: string; seq: number; data: Buffer };
  }>;
  const ids = await typed.selectFrom('media').select('id').execute();
  for (const { id } of ids) {
    const chunks = await typed
      .selectFrom('media_chunks')
      .select('data')
      .where('media_id', '=', id)
      .orderBy('seq')
      .execute();
    const data = Buffer.concat(chunks.map((chunk) => Buffer.from(chunk.data)));
    await typed.updateTable('media').set({ data }).where('id', '=', id).execute();
  }
  await db.schema.dropTable('media_chunks').execute();
}
