import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/support/test-database';
import { preparedQuery } from './prepared-query';
import { rowLimit } from './row-limit';

const database = useTestDatabase();

const idsUpTo = preparedQuery<{ limit: number }, { id: string }>((db, param) =>
  db
    .selectFrom('users')
    .select('id')
    .orderBy('id')
    .limit(rowLimit(param('limit'))),
);

describe('rowLimit', () => {
  it('limits rows as LIMIT does: a number, a prepared query’s parameter, raw SQL, zero', async () => {
    const { db } = database.current;
    const ids = Array.from({ length: 7 }, (_, i) => `${'u'.repeat(23)}${i}`);
    await db
      .insertInto('users')
      .values(ids.map((id, i) => ({ id, email: `limit-${i}@example.com`, name: '', created_at: i, updated_at: i })))
      .execute();
    const built = await db.selectFrom('users').select('id').orderBy('id').limit(rowLimit(3)).execute();
    expect(built.map((row) => row.id)).toEqual(ids.slice(0, 3));
    for (const limit of [0, 1, 5, 7, 100]) {
      expect((await idsUpTo(db, { limit })).map((row) => row.id)).toEqual(ids.slice(0, limit));
    }
    const raw = await sql<{ id: string }>`select id from users order by id limit ${rowLimit(2)} offset ${4}`.execute(
      db,
    );
    expect(raw.rows.map((row) => row.id)).toEqual(ids.slice(4, 6));
  });

  it('is how every LIMIT in the server is written (a bare bound LIMIT is planned again on every run on SQLite)', () => {
    const root = path.resolve(import.meta.dirname, '..');
    const sources = (readdirSync(root, { recursive: true }) as string[]).filter(
      (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
    );
    expect(sources.length).toBeGreaterThan(50);
    const bare: string[] = [];
    for (const file of sources) {
      const text = readFileSync(path.join(root, file), 'utf8');
      for (const match of text.matchAll(/\.limit\((?!rowLimit\()|\blimit \$\{(?!rowLimit\()/g)) {
        bare.push(`${file}: ${text.slice(match.index, match.index + 40)}`);
      }
    }
    expect(bare).toEqual([]);
  });
});
