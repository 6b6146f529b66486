import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Images on cards and media storage (issue 34):
// - media.store: where an image's bytes are, `database` (media_chunks) or `s3` (an object keyed by the content hash);
// - card_media.position: 0 or 1 for the images of a card's `images` list (null for an image its text shows, as
//   imports link them), so a card keeps its images in order;
// - media_released: content hashes of deleted S3 images (a trigger), whose objects the media sweep deletes once no
//   row of that content is left: a database trigger cannot reach the bucket;
// - media_created: the sweep finds images no card uses, oldest first.
// Immutable once landed: change the schema with a new migration.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .alterTable('media')
    .addColumn('store', 'text', (col) => col.notNull().defaultTo('database'))
    .execute();
  await db.schema.alterTable('card_media').addColumn('position', 'integer').execute();
  await db.schema.createIndex('media_created').on('media').columns(['created_at', 'id']).execute();
  await db.schema
    .createTable('media_released')
    .addColumn('sha256', 'text', (col) => col.primaryKey())
    .execute();
  if (postgres) {
    await sql`
      create function media_release_object() returns trigger language plpgsql as $$
      begin
        insert into media_released (sha256) values (old.sha256) on conflict do nothing;
        return null;
      end $$`.execute(db);
    await sql`
      create trigger media_release_object after delete on media
      for each row when (old.store = 's3') execute function media_release_object()`.execute(db);
  } else {
    await sql`
      create trigger media_release_object after delete on media when old.store = 's3'
      begin
        insert into media_released (sha256) values (old.sha256) on conflict do nothing;
      end`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await sql`drop trigger media_release_object${postgres ? sql` on media` : sql``}`.execute(db);
  if (postgres) await sql`drop function media_release_object()`.execute(db);
  await db.schema.dropTable('media_released').execute();
  await db.schema.dropIndex('media_created').execute();
  await db.schema.alterTable('card_media').dropColumn('position').execute();
  await db.schema.alterTable('media').dropColumn('store').execute();
}
