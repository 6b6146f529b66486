// Runs one benchmark part on a fresh SQLite file, then on a fresh schema of PostgreSQL (BENCH_DATABASE_URL or
// DATABASE_URL, default the local test database; skipped with a line when it cannot be reached). BENCH_ONLY=sqlite
// or BENCH_ONLY=postgres runs one of them.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../../apps/server/src/db/database';

export type DatabasePart = (label: string, handle: DatabaseHandle, dataDir: string) => Promise<void>;

export async function onEachDatabase(part: DatabasePart, out: (line: string) => void): Promise<void> {
  const only = process.env.BENCH_ONLY;
  if (only !== 'postgres') {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'flashcards-bench-'));
    const sqlite = openDatabase({ dataDir });
    try {
      await part('SQLite', sqlite, dataDir);
    } finally {
      await sqlite.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  if (only === 'sqlite') return;
  const baseUrl =
    process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const admin = new pg.Client({ connectionString: baseUrl });
  try {
    await admin.connect();
  } catch (error) {
    out(`PostgreSQL: skipped (${error instanceof Error ? error.message : String(error)})`);
    return;
  }
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  await admin.query(`create schema ${schema}`);
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const postgres = openDatabase({ databaseUrl: url.toString(), dataDir: tmpdir() });
  try {
    await part('PostgreSQL', postgres, tmpdir());
  } finally {
    await postgres.close();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  }
}
