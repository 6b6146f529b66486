import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  type DatabaseConnection,
  type Driver,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  type SqliteDatabase as SqliteDialectDatabase,
  SqliteDriver,
  type SqliteStatement,
  sql,
} from 'kysely';
import type pg from 'pg';
import { enableGroupCommit } from './group-commit';
import { migrationProvider } from './migrations/migrations';
import { registerDirectRunner } from './prepared-query';
import type { Database } from './schema';
import { startWalCheckpointer } from './wal-checkpointer';

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Closes every connection; safe to call more than once. */
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… for PostgreSQL; unset for the embedded SQLite file. */
  databaseUrl?: string | undefined;
  /** Where the SQLite file lives when databaseUrl is unset. */
  dataDir: string;
  /** SQLite file name inside dataDir. */
  sqliteFile?: string;
}

/** The SQLite file's path for a data directory. */
export function sqlitePath(dataDir: string, file = 'flashcards.db'): string {
  return path.resolve(dataDir, file);
}

/** How the server's SQLite connection is set up (bench/http-overhead gives its bare SQL route the same). */
export const sqlitePragmas: readonly string[] = [
  // WAL lets readers work while one writer writes. synchronous=NORMAL in WAL mode never corrupts the file;
  // a power cut or OS crash (not a process crash) can lose the last transactions before a checkpoint.
  'journal_mode = WAL',
  'synchronous = NORMAL',
  'foreign_keys = ON',
  'busy_timeout = 5000',
  // Checkpoints run on a thread of their own (wal-checkpointer.ts); this connection checkpoints only if the log
  // reaches 10,000 pages (40 MB), should that thread fall behind. A log left to grow slows every read.
  'wal_autocheckpoint = 10000',
  // Temporary b-trees (count(distinct), a sort the indexes do not give) in memory, since setting up a temporary file's
  // pager for each one cost more than the small counts they serve (docs/performance.md); every long list is paged or
  // read in an index's order, so they stay small.
  'temp_store = MEMORY',
];

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  const { stop, ...handle } = options.databaseUrl ? openPostgres(options.databaseUrl) : openSqlite(options);
  let closed: Promise<void> | undefined;
  return {
    ...handle,
    close: () => {
      closed ??= Promise.all([stop?.(), handle.db.destroy()]).then(() => undefined);
      return closed;
    },
  };
}

/** A database as opened, with what must stop beside its connections when it closes. */
type OpenedDatabase = Omit<DatabaseHandle, 'close'> & { stop?: () => Promise<void> };

function openSqlite(options: DatabaseOptions): OpenedDatabase {
  // Password hashes, emails and billing ids live here: only the server's own user may read them.
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  chmodSync(options.dataDir, 0o700);
  const file = sqlitePath(options.dataDir, options.sqliteFile);
  const database = new SqliteDatabase(file);
  // SQLite gives the -wal and -shm files the main file's mode, so they follow.
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    if (existsSync(path)) chmodSync(path, 0o600);
  }
  for (const pragma of sqlitePragmas) database.pragma(pragma);
  const checkpointer = startWalCheckpointer(file);
  const statements = withStatementCache(database);
  const driver = new HeldSqliteDriver({ database: statements });
  const db = new Kysely<Database>({ dialect: new (driverDialect(driver))({ database: statements }) });
  // Prepared queries (prepared-query.ts) run at once on the connection when no one holds it, or when the query's own
  // transaction does: the same statement Kysely would run, without its asynchronous steps; kept because it clearly
  // lowers the cost of a request (docs/performance.md).
  registerDirectRunner(db, (sqlText, parameters, inTransaction) => {
    if (!inTransaction && driver.held > 0) return undefined;
    const statement = statements.prepare(sqlText);
    if (statement.reader) return statement.all(parameters);
    statement.run(parameters);
    return [];
  });
  enableGroupCommit(db);
  return { db, dialect: 'sqlite', stop: () => checkpointer.stop() };
}

/**
 * Kysely's SQLite driver, counting who holds its one connection: a query from start to end, a transaction from begin
 * to commit. Kysely lets one at a time hold it, and others wait their turn.
 */
class HeldSqliteDriver extends SqliteDriver {
  held = 0;
  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    this.held++;
    return connection;
  }
  override async releaseConnection(): Promise<void> {
    this.held--;
    await super.releaseConnection();
  }
}

/** Kysely's SQLite dialect with the given driver. */
function driverDialect(driver: Driver): typeof SqliteDialect {
  return class extends SqliteDialect {
    override createDriver(): Driver {
      return driver;
    }
  };
}

/** A prepared statement as Kysely's driver and the direct runner use it; `busy` while it is being iterated. */
type CachedStatement = SqliteStatement & { readonly busy: boolean };

/**
 * Reuses prepared statements by SQL text (least recently used out beyond `max`): Kysely prepares every query anew,
 * and preparing costs more than running most of ours. Kysely runs one query at a time on this connection; a
 * statement still busy (being iterated) is never handed out twice.
 */
function withStatementCache(
  database: SqliteDatabase.Database,
  max = 500,
): SqliteDialectDatabase & { prepare(sql: string): CachedStatement } {
  const cache = new Map<string, CachedStatement>();
  return {
    close: () => database.close(),
    prepare(sqlText) {
      const cached = cache.get(sqlText);
      cache.delete(sqlText);
      const statement = cached && !cached.busy ? cached : withObjectRows(database.prepare(sqlText));
      cache.set(sqlText, statement);
      if (cache.size > max) cache.delete(cache.keys().next().value as string);
      return statement;
    },
  };
}

/**
 * A reading statement whose rows are objects built here from better-sqlite3's raw arrays, with the column names read
 * once rather than looked up again for every row; kept because it clearly lowers the cost of a request
 * (docs/performance.md).
 * The same objects, keys in column order; a repeated name keeps its last value, as there.
 */
function withObjectRows(statement: SqliteDatabase.Statement): CachedStatement {
  if (!statement.reader) return statement;
  const names = statement.columns().map((column) => column.name);
  statement.raw(true);
  const toRow = rowBuilder(names);
  return {
    reader: true,
    get busy() {
      return statement.busy;
    },
    all: (parameters) => (statement.all(parameters) as unknown[][]).map(toRow),
    run: (parameters) => statement.run(parameters),
    *iterate(parameters) {
      for (const values of statement.iterate(parameters) as IterableIterator<unknown[]>) yield toRow(values);
    },
  };
}

/**
 * A function from a row's values to its object, made once per statement: an object literal with the statement's
 * column names (written as JSON strings, so any name is a plain key), so that every row of a statement has the same
 * shape from the start.
 */
function rowBuilder(names: string[]): (values: unknown[]) => Record<string, unknown> {
  const fields = names.map((name, i) => `${JSON.stringify(name)}: values[${i}]`).join(', ');
  return new Function('values', `return { ${fields} };`) as (values: unknown[]) => Record<string, unknown>;
}

// int8 (bigint) columns hold epoch-millisecond times and counters: return them as numbers, not strings.
function pgTypes(types: typeof pg.types): { getTypeParser: typeof pg.types.getTypeParser } {
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === types.builtins.INT8
        ? (value: string) => Number(value)
        : types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
  };
}

/**
 * The pool is made at the first query, and pg loaded then: a server on SQLite never loads it (pg's connection
 * module, as it loads, creates a fetch Response to detect Cloudflare Workers, which starts Node's fetch engine and
 * compiles its WebAssembly HTTP parser: about 15 MB that would stay resident).
 */
function openPostgres(connectionString: string): OpenedDatabase {
  const pool = async () => {
    const { default: pgModule } = await import('pg');
    return new pgModule.Pool({ connectionString, types: pgTypes(pgModule.types), max: 10 });
  };
  return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' };
}

/** The migrator of this database, with the project's migrations (migrations.ts). */
export async function createMigrator(db: Kysely<Database>, dialect: DialectName): Promise<Migrator> {
  // On PostgreSQL, keep Kysely's bookkeeping tables in the schema the connection works in (search_path),
  // so that several schemas in one database (tests, tenants) never see each other's migration state.
  const migrationTableSchema =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  return new Migrator({
    db,
    provider: migrationProvider,
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
}

/** Brings the schema up to date; runs at every start (migrations are idempotent by name). */
export async function migrateToLatest(db: Kysely<Database>, dialect: DialectName): Promise<void> {
  const migrator = await createMigrator(db, dialect);
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`Database migration failed${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A trivial round trip, for the health check. */
export async function ping(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
