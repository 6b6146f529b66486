import { type RawBuilder, sql } from 'kysely';

/**
 * A LIMIT for any query in this project: `.limit(rowLimit(n))`, or `limit ${rowLimit(n)}` in raw SQL.
 *
 * SQLite (3.46 on) reads the value bound to a bare `LIMIT ?` while it plans, and so marks the statement to be planned
 * again whenever that parameter is bound: better-sqlite3 binds on every run, so a cached statement was compiled anew
 * each time. Wrapped in a cast, the value is still a parameter (the same SQL for every value, on both databases) but
 * no longer one SQLite plans by. `n` may be a prepared query's `param(...)`.
 */
export function rowLimit(n: number): RawBuilder<number> {
  return sql<number>`cast(${n} as integer)`;
}
