import { type Kysely, type Migrator, sql } from 'kysely';
import { expect } from 'vitest';
import { createMigrator } from '../../src/db/database';
import type { Database } from '../../src/db/schema';
import type { TestDatabase } from './test-database';

/** The test database moved back to `version` (the schema just before the migration under test), and its migrator. */
export async function migratedBackTo(database: TestDatabase, version: string): Promise<Migrator> {
  const migrator = await createMigrator(database.db, database.dialect);
  expect((await migrator.migrateTo(version)).error).toBeUndefined();
  return migrator;
}

/** A user row with only the columns every schema version has (raw SQL: the typed schema is the latest one). */
export async function insertUserRow(db: Kysely<Database>, id: string, email: string, now: number): Promise<void> {
  await sql`insert into users (id, email, name, created_at, updated_at)
    values (${id}, ${email}, 'M', ${now}, ${now})`.execute(db);
}
