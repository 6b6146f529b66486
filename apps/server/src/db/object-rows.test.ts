import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase, sqlitePath } from './database';
import { preparedQuery } from './prepared-query';

// The SQLite connection builds row objects itself from better-sqlite3's raw arrays (database.ts, withObjectRows):
// every path a row takes must give exactly the objects better-sqlite3 gives. An SQLite file of its own, whatever
// DATABASE_URL says.

let dataDir: string;
let handle: DatabaseHandle;
let reference: SqliteDatabase.Database;

// Every storage class, a NULL, a repeated column name (the last value wins) and a name that is not an identifier.
const selectEverything = `select 1 as "a", 'text é' as "b", null as "c", x'00ff' as "d", 2.5 as "a", 7 as "with space"`;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'flashcards-rows-'));
  handle = openDatabase({ dataDir });
  await sql`create table items (id integer primary key, label text, weight real, data blob)`.execute(handle.db);
  await sql`insert into items (label, weight, data) values ('one', 1.5, x'01'), (null, null, null), ('three', 3, x'')`.execute(
    handle.db,
  );
  reference = new SqliteDatabase(sqlitePath(dataDir), { readonly: true });
});

afterAll(async () => {
  reference.close();
  await handle.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('row objects on SQLite', () => {
  it('through Kysely are better-sqlite3’s own objects, keys in the same order', async () => {
    const expected = reference.prepare(selectEverything).all();
    const { rows } = await sql.raw(selectEverything).execute(handle.db);
    expect(rows).toEqual(expected);
    expect(rows.map((row) => Object.keys(row as object))).toEqual(expected.map((row) => Object.keys(row as object)));
    expect(rows[0]).toEqual({ a: 2.5, b: 'text é', c: null, d: Buffer.from([0, 255]), 'with space': 7 });
  });

  it('through a query builder, a prepared query and a stream, for several rows', async () => {
    const expected = reference.prepare('select * from items order by id').all();
    expect(expected).toHaveLength(3);
    expect(
      await handle.db
        .selectFrom('items' as never)
        .selectAll()
        .orderBy('id' as never)
        .execute(),
    ).toEqual(expected);
    const prepared = preparedQuery((db) =>
      db
        .selectFrom('items' as never)
        .selectAll()
        .orderBy('id' as never),
    );
    expect(await prepared(handle.db, {})).toEqual(expected);
    const streamed: unknown[] = [];
    for await (const row of handle.db
      .selectFrom('items' as never)
      .selectAll()
      .orderBy('id' as never)
      .stream()) {
      streamed.push(row);
    }
    expect(streamed).toEqual(expected);
  });

  it('with names that are not plain words: quotes, a backslash, numbers, code, __proto__', async () => {
    // Each statement's rows are built by a function made from its column names (database.ts, rowBuilder).
    const names = `select 1 as "say ""hi""", 2 as "back\\slash", 3 as "10", 4 as "2", 5 as "}; throw 1; ({", 6 as "constructor"`;
    const expected = reference.prepare(names).all();
    const { rows } = await sql.raw(names).execute(handle.db);
    expect(rows).toEqual(expected);
    expect(rows.map((row) => Object.keys(row as object))).toEqual(expected.map((row) => Object.keys(row as object)));
    expect(Object.keys(expected[0] as object)).toHaveLength(6);
    const proto = `select 1 as "a", 2 as "__proto__", 3 as "b"`;
    const protoExpected = reference.prepare(proto).all();
    const protoRows = (await sql.raw(proto).execute(handle.db)).rows as object[];
    expect(protoRows.map((row) => Object.keys(row))).toEqual(protoExpected.map((row) => Object.keys(row as object)));
    expect(protoRows.map((row) => Object.getPrototypeOf(row))).toEqual([Object.prototype]);
  });

  it('from a write that returns rows, and none from one that does not', async () => {
    const returned = await sql`update items set weight = weight * 2 where label = 'one' returning id, weight`.execute(
      handle.db,
    );
    expect(returned.rows).toEqual([{ id: 1, weight: 3 }]);
    const plain = await sql`update items set weight = 0 where id = 2`.execute(handle.db);
    expect(plain.rows).toEqual([]);
    expect(plain.numAffectedRows).toBe(1n);
  });
});
