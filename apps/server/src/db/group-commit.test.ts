import type { Kysely, Transaction } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/support/test-database';
import { openDatabase } from './database';
import { inGroupCommit } from './group-commit';
import type { Database } from './schema';

const database = useTestDatabase();
const sqlite = () => database.current.dialect === 'sqlite';

let next = 0;
/** A user row's insert inside `trx`; answers its id. */
async function addUser(trx: Kysely<Database>): Promise<string> {
  next++;
  const id = `${Date.now().toString(16).slice(-8)}${next.toString(16).padStart(16, '0')}`;
  await trx
    .insertInto('users')
    .values({ id, email: `${id}@example.com`, name: id, created_at: 1, updated_at: 1 })
    .execute();
  return id;
}

async function existing(ids: string[], db: Kysely<Database> = database.current.db): Promise<string[]> {
  const rows = await db.selectFrom('users').select('id').where('id', 'in', ids).execute();
  return rows.map((row) => row.id).sort();
}

/** `count` user inserts handed to group commit in one turn: their ids, and the transaction each ran in. */
async function addUsersAtOnce(count: number): Promise<{ ids: string[]; seen: Transaction<Database>[] }> {
  const seen: Transaction<Database>[] = [];
  const ids = await Promise.all(
    Array.from({ length: count }, () =>
      inGroupCommit(database.current.db, async (trx) => {
        seen.push(trx);
        return addUser(trx);
      }),
    ),
  );
  return { ids, seen };
}

describe('group commit', () => {
  it('runs the transactions of one turn in one transaction on SQLite, each in its own on PostgreSQL', async () => {
    const { ids, seen } = await addUsersAtOnce(5);
    expect(await existing(ids)).toEqual([...ids].sort());
    expect(new Set(seen).size).toBe(sqlite() ? 1 : 5);
  });

  it('answers once committed: another connection reads every acknowledged write', async () => {
    const other = openDatabase(database.current.options);
    try {
      const ids = await Promise.all(Array.from({ length: 10 }, () => inGroupCommit(database.current.db, addUser)));
      expect(await existing(ids, other.db)).toEqual([...ids].sort());
    } finally {
      await other.close();
    }
  });

  it('keeps a group to 64 transactions', async () => {
    const { ids, seen } = await addUsersAtOnce(150);
    expect(await existing(ids)).toHaveLength(150);
    expect(new Set(seen).size).toBe(sqlite() ? 3 : 150);
  });

  it('a transaction that throws reaches only its caller, and nothing it wrote is kept', async () => {
    const runs = { first: 0, failing: 0, last: 0 };
    let failedId = '';
    const outcomes = await Promise.allSettled([
      inGroupCommit(database.current.db, async (trx) => {
        runs.first++;
        return addUser(trx);
      }),
      inGroupCommit(database.current.db, async (trx) => {
        runs.failing++;
        failedId = await addUser(trx);
        throw new Error('refused after a write');
      }),
      inGroupCommit(database.current.db, async (trx) => {
        runs.last++;
        return addUser(trx);
      }),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toEqual(new Error('refused after a write'));
    const kept = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value as string] : []));
    expect(await existing(kept)).toEqual([...kept].sort());
    expect(await existing([failedId])).toEqual([]);
    // On SQLite the group stopped at the failure and was rolled back, then each ran again alone.
    expect(runs).toEqual(sqlite() ? { first: 2, failing: 2, last: 1 } : { first: 1, failing: 1, last: 1 });
  });

  it('a constraint the database refuses fails only the transaction that broke it', async () => {
    const taken = await inGroupCommit(database.current.db, addUser);
    const outcomes = await Promise.allSettled([
      inGroupCommit(database.current.db, addUser),
      inGroupCommit(database.current.db, async (trx) => {
        await trx
          .insertInto('users')
          .values({ id: taken, email: 'duplicate@example.com', name: 'x', created_at: 1, updated_at: 1 })
          .execute();
      }),
      inGroupCommit(database.current.db, addUser),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const kept = [outcomes[0], outcomes[2]].map((outcome) => (outcome as PromiseFulfilledResult<string>).value);
    expect(await existing(kept)).toEqual([...kept].sort());
    const duplicate = await database.current.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'duplicate@example.com')
      .execute();
    expect(duplicate).toEqual([]);
  });

  it('inside a transaction, runs in that transaction', async () => {
    const id = await database.current.db.transaction().execute(async (outer) => {
      const inner = await inGroupCommit(outer, async (trx) => {
        expect(trx).toBe(outer);
        return addUser(trx);
      });
      expect(await existing([inner], outer)).toEqual([inner]);
      return inner;
    });
    expect(await existing([id])).toEqual([id]);
  });
});
