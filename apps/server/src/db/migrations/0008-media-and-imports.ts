import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Anki interop (issue 14):
// - media: images from imports, stored in the database (so one app server or many serve them), content-addressed
//   per user: one row per (user, content hash), served under an unguessable name (content hash + per-user secret);
// - card_media: which cards show which image, so deleting the last card that uses an image deletes the image
//   (a trigger, so every way a card goes: one card, its deck, the account);
// - imported_notes: Anki note guids already imported, so importing the same package again skips them; tied to the
//   deck the note went into, so deleting that deck allows importing it again;
// - users.media_secret: the per-user secret in media names, made on the first import.
// Immutable once landed: change the schema with a new migration.

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema.alterTable('users').addColumn('media_secret', 'text').execute();

  await db.schema
    .createTable('media')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (col) => col.notNull().unique())
    .addColumn('sha256', 'text', (col) => col.notNull())
    .addColumn('content_type', 'text', (col) => col.notNull())
    .addColumn('size', 'integer', (col) => col.notNull())
    .addColumn('data', postgres ? 'bytea' : 'blob', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addUniqueConstraint('media_user_sha256', ['user_id', 'sha256'])
    .execute();

  await db.schema
    .createTable('card_media')
    .addColumn('card_id', 'text', (col) => col.notNull().references('cards.id').onDelete('cascade'))
    .addColumn('media_id', 'text', (col) => col.notNull().references('media.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('card_media_pk', ['card_id', 'media_id'])
    .execute();
  await db.schema.createIndex('card_media_media').on('card_media').column('media_id').execute();

  if (postgres) {
    await sql`
      create function card_media_release() returns trigger language plpgsql as $$
      begin
        delete from media where id = old.media_id
          and not exists (select 1 from card_media where media_id = old.media_id);
        return null;
      end $$`.execute(db);
    await sql`
      create trigger card_media_release after delete on card_media
      for each row execute function card_media_release()`.execute(db);
  } else {
    await sql`
      create trigger card_media_release after delete on card_media
      begin
        delete from media where id = old.media_id
          and not exists (select 1 from card_media where media_id = old.media_id);
      end`.execute(db);
  }

  await db.schema
    .createTable('imported_notes')
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('guid', 'text', (col) => col.notNull())
    .addColumn('deck_id', 'text', (col) => col.notNull().references('decks.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('imported_notes_pk', ['user_id', 'guid'])
    .execute();
  await db.schema.createIndex('imported_notes_deck').on('imported_notes').column('deck_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.dropTable('imported_notes').execute();
  await sql`drop trigger card_media_release${postgres ? sql` on card_media` : sql``}`.execute(db);
  if (postgres) await sql`drop function card_media_release()`.execute(db);
  await db.schema.dropTable('card_media').execute();
  await db.schema.dropTable('media').execute();
  await db.schema.alterTable('users').dropColumn('media_secret').execute();
}
