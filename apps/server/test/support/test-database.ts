import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../../src/db/database';

export interface TestDatabase extends DatabaseHandle {
  /** For a second app server on the same data: the same options the first one used. */
  options: { databaseUrl: string | undefined; dataDir: string };
  /** On PostgreSQL, the schema of its own that this database lives in. */
  schema: string | undefined;
  /** Closes the connections and removes the data (the temp directory, or the PostgreSQL schema). */
  destroy(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file: a SQLite file in a temp directory by default, or, when
 * DATABASE_URL is set (CI's PostgreSQL run), a new schema in that database so that files run in parallel.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'flashcards-test-'));
  const baseUrl = process.env.DATABASE_URL;
  let databaseUrl: string | undefined;
  let schema: string | undefined;
  let dropSchema = async () => {};
  if (baseUrl) {
    schema = `test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const url = new URL(baseUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = url.toString();
    dropSchema = async () => {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    };
  }
  const handle = openDatabase({ databaseUrl, dataDir });
  await migrateToLatest(handle.db, handle.dialect);
  return {
    ...handle,
    options: { databaseUrl, dataDir },
    schema,
    async destroy() {
      await handle.close();
      await dropSchema();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One database for the whole test file: created in `beforeAll`, destroyed in `afterAll`. */
export function useTestDatabase(): { readonly current: TestDatabase } {
  const holder: { current?: TestDatabase } = {};
  beforeAll(async () => {
    holder.current = await createTestDatabase();
  });
  afterAll(async () => {
    await holder.current?.destroy();
  });
  return {
    get current() {
      if (!holder.current) throw new Error('the test database is created in beforeAll: use it inside a test or a hook');
      return holder.current;
    },
  };
}
