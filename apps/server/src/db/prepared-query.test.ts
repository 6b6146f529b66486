import { describe, expect, it } from 'vitest';
import { signal } from '../../test/support/signal';
import { useTestDatabase } from '../../test/support/test-database';
import { preparedFirst, preparedQuery } from './prepared-query';
import { rowLimit } from './row-limit';

const database = useTestDatabase();

async function addUser(id: string, email: string, createdAt: number): Promise<void> {
  await database.current.db
    .insertInto('users')
    .values({ id, email, name: email, created_at: createdAt, updated_at: createdAt })
    .execute();
}

// Built once per dialect; the limit and the bounds are parameters, the ordering is a constant of the query.
const usersCreatedBetween = preparedQuery<{ from: number; to: number; limit: number }, { id: string }>((db, param) =>
  db
    .selectFrom('users')
    .select('id')
    .where('created_at', '>=', param('from'))
    .where('created_at', '<', param('to'))
    .orderBy('created_at')
    .limit(rowLimit(param('limit'))),
);

const insertUser = preparedQuery<{ id: string; email: string; at: number }, never>((db, param) =>
  db.insertInto('users').values({
    id: param('id'),
    email: param('email'),
    name: param('email'),
    created_at: param('at'),
    updated_at: param('at'),
  }),
);

const userEmail = preparedFirst<{ id: string }, { email: string }>((db, param) =>
  db.selectFrom('users').select('email').where('id', '=', param('id')),
);

describe('preparedQuery', () => {
  it('compiles once and binds each run’s own values, in the places the builder named them', async () => {
    await addUser('p'.repeat(24), 'prepared-a@example.com', 1_000);
    await addUser('q'.repeat(24), 'prepared-b@example.com', 2_000);
    await addUser('r'.repeat(24), 'prepared-c@example.com', 3_000);
    const { db } = database.current;

    expect(await usersCreatedBetween(db, { from: 0, to: 10_000, limit: 10 })).toEqual([
      { id: 'p'.repeat(24) },
      { id: 'q'.repeat(24) },
      { id: 'r'.repeat(24) },
    ]);
    expect(await usersCreatedBetween(db, { from: 1_500, to: 10_000, limit: 1 })).toEqual([{ id: 'q'.repeat(24) }]);
    expect(await usersCreatedBetween(db, { from: 3_001, to: 10_000, limit: 10 })).toEqual([]);
    expect(await userEmail(db, { id: 'r'.repeat(24) })).toEqual({ email: 'prepared-c@example.com' });
    expect(await userEmail(db, { id: 'x'.repeat(24) })).toBeUndefined();
  });

  it('runs inside a transaction, which sees its own uncommitted writes and loses them on rollback', async () => {
    const { db } = database.current;
    const id = 's'.repeat(24);
    await expect(
      db.transaction().execute(async (trx) => {
        await trx
          .insertInto('users')
          .values({ id, email: 'in-transaction@example.com', name: 'T', created_at: 5_000, updated_at: 5_000 })
          .execute();
        expect(await userEmail(trx, { id })).toEqual({ email: 'in-transaction@example.com' });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await userEmail(db, { id })).toBeUndefined();
  });

  it('never runs inside another caller’s open transaction: it waits or reads apart, never its uncommitted writes', async () => {
    const { db } = database.current;
    const id = 'u'.repeat(24);
    const held = signal();
    const inserted = signal();
    const transaction = db.transaction().execute(async (trx) => {
      await trx
        .insertInto('users')
        .values({ id, email: 'uncommitted@example.com', name: 'U', created_at: 6_000, updated_at: 6_000 })
        .execute();
      inserted.fire();
      await held.promise;
      throw new Error('roll back');
    });
    await inserted.promise;
    // SQLite has one connection, which the transaction holds: the read waits its turn. PostgreSQL reads on another.
    const read = userEmail(db, { id });
    const write = insertUser(db, { id: 'v'.repeat(24), email: 'outside@example.com', at: 7_000 });
    held.fire();
    await expect(transaction).rejects.toThrow('roll back');
    expect(await read).toBeUndefined();
    await write;
    // The write outside was not swept into the transaction and rolled back with it.
    expect(await userEmail(db, { id: 'v'.repeat(24) })).toEqual({ email: 'outside@example.com' });
  });

  it('passes hostile values as bound parameters, never as SQL', async () => {
    const { db } = database.current;
    const hostile = "' or 1=1; drop table users; --";
    expect(await userEmail(db, { id: hostile })).toBeUndefined();
    expect(await userEmail(db, { id: 'p'.repeat(24) })).toEqual({ email: 'prepared-a@example.com' });
  });
});
