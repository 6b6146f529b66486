import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, migrateToLatest, openDatabase } from './database';

// Migration 0010: the due queue and the next-due times read cards "order by due, id" from an index, with no sort (a
// temporary b-tree per read, even over no rows). SQLite's plan says which; an SQLite file of its own, whatever
// DATABASE_URL says.

let dataDir: string;
let handle: DatabaseHandle;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'flashcards-plans-'));
  handle = openDatabase({ dataDir });
  await migrateToLatest(handle.db, handle.dialect);
});

afterAll(async () => {
  await handle.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function plan(query: string): Promise<string> {
  const { rows } = await sql.raw<{ detail: string }>(`explain query plan ${query}`).execute(handle.db);
  return rows.map((row) => row.detail).join('\n');
}

describe('the queue-order indexes on SQLite', () => {
  it('serve a deck’s and a learner’s cards of one state in (due, id) order, without a sort', async () => {
    const columns = 'id, deck_id, question, answer, state, due, created_at, reps, lapses';
    const oneDeck = await plan(
      `select ${columns} from cards where user_id = 'u' and deck_id = 'd' and state = 2 and due <= 5 order by due, id limit 200`,
    );
    expect(oneDeck).toContain('USING INDEX cards_user_deck_state_due');
    const allDecks = await plan(
      `select ${columns} from cards where user_id = 'u' and state = 2 and due <= 5 order by due, id limit 200`,
    );
    expect(allDecks).toContain('USING INDEX cards_user_state_due');
    const nextDue = await plan(
      `select due from cards where user_id = 'u' and state = 1 and due > 5 order by due limit 1`,
    );
    expect(nextDue).toContain('USING COVERING INDEX cards_user_state_due');
    for (const text of [oneDeck, allDecks, nextDue]) expect(text).not.toContain('TEMP B-TREE');
  });
});
