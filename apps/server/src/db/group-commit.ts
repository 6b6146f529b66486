import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema';

/**
 * A small write transaction's work: it may touch only the database, and may run twice (after a failed group, below).
 */
export type GroupedWork<T> = (trx: Transaction<Database>) => Promise<T>;

interface Pending {
  work: GroupedWork<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Enqueue = (work: GroupedWork<unknown>) => Promise<unknown>;

// Keyed by the dialect's adapter, which a Kysely instance shares with its transactions (as in prepared-query.ts).
const groups = new WeakMap<object, Enqueue>();

/** The most transactions one commit takes: bounds how long the others wait for the connection. */
const MAX_GROUP = 64;

/**
 * Group commit on `db` (database.ts, for SQLite): the transactions given to `inGroupCommit` in one turn of the event
 * loop run one after another inside a single transaction, committed once. A commit is most of a small write's cost on
 * SQLite (the pages it changed, appended to the write-ahead log); reviews that arrive
 * together share the pages they change (the review log's last page, its indexes, the statistics row) and one commit.
 * Nothing is acknowledged before its commit. If any of the group fails, the whole group is rolled back and each runs
 * again alone, so that one failure reaches only its own caller. A lone transaction waits for nothing: the group
 * closes at the end of the turn (setImmediate), after the requests read in it.
 */
export function enableGroupCommit(db: Kysely<Database>): void {
  let pending: Pending[] = [];
  const runAlone = (item: Pending) => db.transaction().execute(item.work).then(item.resolve, item.reject);
  const flush = async () => {
    const group = pending.slice(0, MAX_GROUP);
    pending = pending.slice(MAX_GROUP);
    if (pending.length > 0) setImmediate(flush);
    if (group.length === 1) return runAlone(group[0] as Pending);
    let results: unknown[];
    try {
      results = await db.transaction().execute(async (trx) => {
        const values: unknown[] = [];
        for (const item of group) values.push(await item.work(trx));
        return values;
      });
    } catch {
      await Promise.all(group.map(runAlone));
      return;
    }
    for (const [i, item] of group.entries()) item.resolve(results[i]);
  };
  groups.set(
    db.getExecutor().adapter,
    (work) =>
      new Promise((resolve, reject) => {
        pending.push({ work, resolve, reject });
        if (pending.length === 1) setImmediate(flush);
      }),
  );
}

/**
 * Runs `work` in a transaction: grouped with others (above) where the database has group commit, in a transaction of
 * its own otherwise (PostgreSQL, whose connections commit in parallel), or in `db` itself when it is a transaction.
 * Answers once `work`'s writes are committed.
 */
export function inGroupCommit<T>(db: Kysely<Database>, work: GroupedWork<T>): Promise<T> {
  if (db.isTransaction) return work(db as Transaction<Database>);
  const enqueue = groups.get(db.getExecutor().adapter);
  return enqueue ? (enqueue(work as GroupedWork<unknown>) as Promise<T>) : db.transaction().execute(work);
}
