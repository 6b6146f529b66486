import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../test/support/wait-for';
import { openDatabase, sqlitePath } from './database';

// SQLite's own behaviour, so an SQLite file of its own whatever DATABASE_URL says.
const dataDirs: string[] = [];
afterEach(() => {
  for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('WAL checkpoints on a thread of their own', () => {
  it('copy what the server commits into the database file, the server’s connection only committing', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'flashcards-wal-'));
    dataDirs.push(dataDir);
    const file = sqlitePath(dataDir);
    const handle = openDatabase({ dataDir });
    await sql`create table filler (id integer primary key, body blob not null)`.execute(handle.db);
    const before = statSync(file).size;
    // About 2.5 MB in 300 commits: some 900 log pages, far below the connection's own threshold (10,000 pages), so
    // only the thread can have copied them into the database file.
    for (let i = 0; i < 300; i++) {
      await sql`insert into filler (body) values (${Buffer.alloc(8_192, i % 256)})`.execute(handle.db);
    }
    // Fails the test if the file has not grown within 5 s.
    await waitFor(() => statSync(file).size >= before + 2_400_000, 5_000);
    await handle.close();

    const reopened = openDatabase({ dataDir });
    try {
      const { rows } = await sql<{ n: number }>`select count(*) as n from filler`.execute(reopened.db);
      expect(rows).toEqual([{ n: 300 }]);
      const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(reopened.db);
      expect(check.rows).toEqual([{ integrity_check: 'ok' }]);
    } finally {
      await reopened.close();
    }
  });
});
