// SQLite's WAL checkpoints on a thread of their own (plain JavaScript so that Node runs it as-is, under tsx, Vitest or
// a build). workerData: { file, intervalMs }. It opens its own connection to the database file and, every intervalMs
// when another connection has committed since, copies the write-ahead log's pages into the database: a PASSIVE
// checkpoint, which never waits for the server's connection nor blocks it. Message in: 'stop' (closes and exits).
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const db = new Database(workerData.file);
// As the server's connection: the checkpoint syncs the log before copying and the database after.
db.pragma('synchronous = NORMAL');
const dataVersion = db.prepare('pragma data_version').pluck();
const checkpoint = db.prepare('pragma wal_checkpoint(PASSIVE)');
let seen = -1;
const timer = setInterval(() => {
  try {
    // data_version moves when another connection commits: an idle database costs one cheap read per tick.
    const version = dataVersion.get();
    if (version === seen) return;
    seen = version;
    checkpoint.run();
  } catch {
    // A busy or failing checkpoint is retried at the next tick; the server's own connection checkpoints too, later.
    seen = -1;
  }
}, workerData.intervalMs);

parentPort?.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort?.close();
});
