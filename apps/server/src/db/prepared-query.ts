import { type Compilable, type CompiledQuery, createQueryId, type Kysely } from 'kysely';
import type { Database } from './schema';

/** Stands in for a run-time value while the query is compiled; its place in the parameters is remembered. */
class Slot {
  constructor(readonly name: string) {}
}

type Params = Record<string, unknown>;

/**
 * Runs a compiled statement at once on the dialect's connection and answers its rows, or undefined when it cannot now
 * (Kysely then runs it). `inTransaction`: the query belongs to a transaction, which holds the connection.
 */
export type DirectRunner = (
  sql: string,
  parameters: readonly unknown[],
  inTransaction: boolean,
) => unknown[] | undefined;

// Keyed by the dialect's adapter, which a Kysely instance shares with its transactions.
const directRunners = new WeakMap<object, DirectRunner>();

/** Lets the prepared queries on `db` (and its transactions) run through `runner` (database.ts, for SQLite). */
export function registerDirectRunner(db: Kysely<Database>, runner: DirectRunner): void {
  directRunners.set(db.getExecutor().adapter, runner);
}

/** Puts `param(name)` where a run-time value goes; typed as that value, so the builder type-checks as usual. */
export type ParamOf<P extends Params> = <K extends keyof P & string>(name: K) => P[K];

/**
 * A query built and compiled once per SQL dialect, then run with new values: Kysely otherwise rebuilds and recompiles
 * every query on every call, which on the busiest routes cost as much as running the SQL (bench/http-overhead).
 * `build` must give the same SQL for any values: it may not branch on them (use one prepared query per shape).
 * `db` may be a transaction. Kysely plugins are not used in this project; they would run once, at compile time.
 */
export function preparedQuery<P extends Params, R>(
  build: (db: Kysely<Database>, param: ParamOf<P>) => Compilable<R>,
): (db: Kysely<Database>, params: P) => Promise<R[]> {
  const byAdapter = new WeakMap<object, CompiledQuery>();
  return async (db, params) => {
    const adapter = db.getExecutor().adapter;
    let compiled = byAdapter.get(adapter);
    if (!compiled) {
      compiled = build(db, ((name: string) => new Slot(name)) as ParamOf<P>).compile();
      byAdapter.set(adapter, compiled);
    }
    // Each compiled parameter is a Slot (the named value goes there) or a constant the builder gave.
    const parameters = compiled.parameters.map((slot) => (slot instanceof Slot ? params[slot.name] : slot));
    const rows = directRunners.get(adapter)?.(compiled.sql, parameters, db.isTransaction);
    if (rows) return rows as R[];
    const query = { query: compiled.query, sql: compiled.sql, parameters, queryId: createQueryId() };
    return (await db.executeQuery(query as CompiledQuery<R>)).rows;
  };
}

/** `preparedQuery` for a query that answers at most one row: that row or undefined. */
export function preparedFirst<P extends Params, R>(
  build: (db: Kysely<Database>, param: ParamOf<P>) => Compilable<R>,
): (db: Kysely<Database>, params: P) => Promise<R | undefined> {
  const run = preparedQuery(build);
  return async (db, params) => (await run(db, params))[0];
}
